/**
 * The egress policy through the HTTP API on workerd (containment): a scripted model on agent
 * `egress` asks web_fetch, web_search and a user tool (state.fetch) for local and metadata addresses.
 * The test Worker allows exactly one development host, the fake web services (`127.0.0.1:<port>`,
 * EGRESS_ALLOW_HOSTS in vitest.config.ts); an "intranet" server is allowed by nothing. Both write
 * what they receive to one request log, which shows that a refused URL was never requested.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { expectRefusal } from '../support/egress-refusals.js';
import {
  loopbackSpellings,
  type RefusedUrlCase,
  redirectTargets,
  refusedUrls,
  TOOL_NETWORK_OUTSIDE_BODY,
  TOOL_NETWORK_WAYS,
} from '../support/hostile-corpus.js';
import { markedAs } from '../support/outside-data.js';

interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

interface WebRequest {
  path: string;
  query: Record<string, string>;
}

const services = new URL(env.SERVICES_URL);
const intranet = new URL(env.INTRANET_URL);
const marker = () => `m${crypto.randomUUID().slice(0, 8)}`;
const fetchPage = (url: string): Call => ({ name: 'web_fetch', arguments: { url } });

/** One thread of agent `egress` (or `agent`) whose model makes the calls, at most 10 per step, then stops. */
async function run(calls: Call[], variables: Record<string, string> = {}, agent = 'egress'): Promise<Message[]> {
  const steps = Array.from({ length: Math.ceil(calls.length / 10) }, (_, step) => ({
    toolCalls: calls.slice(step * 10, step * 10 + 10),
  }));
  const id = await createThread({
    agent,
    variables,
    messages: [{ content: directive([...steps, { text: 'done' }]) }],
  });
  const log = await settled(id);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  const results = log.filter((message) => message.role === 'tool');
  expect(results).toHaveLength(calls.length);
  return results;
}

/** Every request either local server received that mentions `tag`. */
async function received(tag: string): Promise<WebRequest[]> {
  const response = await fetch(`${env.SERVICES_URL}/web/requests?containing=${encodeURIComponent(tag)}`);
  return (await response.json()) as WebRequest[];
}

/** Whether the test Worker's one development host (the services' 127.0.0.1:<port>) admits the case. */
function admittedByTheAllowList(item: RefusedUrlCase): boolean {
  try {
    const url = new URL(item.url);
    return /^https?:$/.test(url.protocol) && url.username === '' && url.host === services.host;
  } catch {
    return false;
  }
}

describe('egress policy through the HTTP API', () => {
  it('LOCK-5: every address of the corpus is refused by web_fetch, and neither local server is reached', async () => {
    const tag = marker();
    const cases = [
      // The live services port through every host that is not the allowed one: localhost, [::1],
      // 0.0.0.0, [::ffff:127.0.0.1], ...
      ...refusedUrls(Number(services.port), `/web/plain.txt?egress=${tag}`).filter(
        (item) => !admittedByTheAllowList(item),
      ),
      // The intranet server through every spelling, 127.0.0.1 included: nothing allows its port.
      ...refusedUrls(Number(intranet.port), `/refused?egress=${tag}`),
    ];
    expect(cases.some((item) => item.url.includes('localhost') && item.url.includes(services.port))).toBe(true);
    const results = await run(cases.map((item) => fetchPage(item.url)));
    // Each answer is the policy's own refusal, so no attempt reached a network: one that had (to
    // 169.254.169.254, say) would answer with its timeout or connection error instead.
    for (const [index, item] of cases.entries()) {
      expect(results[index]?.tool_status, item.label).toBe('error');
      expectRefusal(results[index]?.content ?? '', item, 'Error: web_fetch: ');
    }
    expect(await received(tag)).toEqual([]);
  });

  it('LOCK-5: the finding: the services port through localhost, [::1], 0.0.0.0, 2130706433 elsewhere, [::ffff:127.0.0.1]', async () => {
    const tag = marker();
    const port = services.port;
    const path = `/web/plain.txt?finding=${tag}`;
    const results = await run(
      [
        `http://localhost:${port}${path}`,
        `http://[::1]:${port}${path}`,
        `http://0.0.0.0:${port}${path}`,
        `http://2130706433:${intranet.port}${path}`,
        `http://[::ffff:127.0.0.1]:${port}${path}`,
        'http://169.254.169.254/latest/meta-data/',
      ].map(fetchPage),
    );
    const hint = ' (set EGRESS_ALLOW_HOSTS to allow a development host)';
    expect(results.map((message) => message.content)).toEqual([
      `Error: web_fetch: http://localhost:${port}${path} is refused: localhost is a loopback name${hint}`,
      `Error: web_fetch: http://[::1]:${port}${path} is refused: [::1] is the loopback address${hint}`,
      `Error: web_fetch: http://0.0.0.0:${port}${path} is refused: 0.0.0.0 is an unspecified address ("this network", 0.0.0.0/8)${hint}`,
      `Error: web_fetch: http://127.0.0.1:${intranet.port}${path} is refused: 127.0.0.1 is a loopback address${hint}`,
      `Error: web_fetch: http://[::ffff:7f00:1]:${port}${path} is refused: [::ffff:7f00:1] is an IPv4-mapped address of 127.0.0.1, a loopback address${hint}`,
      'Error: web_fetch: http://169.254.169.254/latest/meta-data/ is refused: 169.254.169.254 is a cloud metadata address',
    ]);
    expect(await received(tag)).toEqual([]);
  });

  it('LOCK-5: every spelling of the allowed 127.0.0.1:<port> is the same address and reaches the services', async () => {
    const tag = marker();
    const spellings = loopbackSpellings(Number(services.port), `/web/plain.txt?spelling=${tag}`);
    const results = await run(spellings.map(({ url }) => fetchPage(url)));
    for (const [index, { label }] of spellings.entries()) {
      expect(results[index], label).toMatchObject({
        tool_status: 'success',
        content: markedAs('plain text body\n  kept   as is'),
      });
    }
    expect(await received(tag)).toHaveLength(spellings.length);
  });

  it('LOCK-5: a redirect from the allowed services to a refused address is refused at the hop, the target never requested', async () => {
    const tag = marker();
    const targets = [
      `http://localhost:${services.port}/web/plain.txt?hop=${tag}`,
      `http://[::1]:${services.port}/web/plain.txt?hop=${tag}`,
      `${env.INTRANET_URL}/hop?hop=${tag}`,
      `http://0x7f000001:${intranet.port}/hop?hop=${tag}`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    const results = await run(
      targets.map((target) => fetchPage(`${env.SERVICES_URL}/web/redirect-to?location=${encodeURIComponent(target)}`)),
    );
    for (const [index, target] of targets.entries()) {
      const head = `Error: web_fetch: redirected to a refused URL: ${new URL(target).href} is refused: `;
      expect(results[index]?.content?.slice(0, head.length)).toBe(head);
    }
    // The redirecting requests arrived (their query names the target); the targets never did.
    const log = await received(tag);
    const tagged = targets.filter((target) => target.includes(tag));
    expect(log.map((request) => request.path)).toEqual(tagged.map(() => '/web/redirect-to'));
  });

  it('LOCK-5: web_search refuses a provider base URL inside the network and sends it nothing', async () => {
    const tag = marker();
    const variants: Record<string, string>[] = [
      { SEARXNG_URL: `http://localhost:${services.port}/web/searxng` },
      { SEARXNG_URL: env.INTRANET_URL },
      { BRAVE_SEARCH_API_KEY: 'brave-key', BRAVE_SEARCH_BASE_URL: 'http://169.254.169.254' },
    ];
    for (const variables of variants) {
      const [result] = await run([{ name: 'web_search', arguments: { query: `q ${tag}` } }], variables);
      expect(result?.tool_status).toBe('error');
      expect(result?.content).toMatch(
        /^Error: web_search: (SearXNG|Brave Search) could not be reached: http:\/\/\S+ is refused: /,
      );
    }
    expect(await received(tag)).toEqual([]);
  });

  it('LOCK-5: a user tool fetching through state.fetch gets the same policy', async () => {
    const tag = marker();
    const [allowed, refused] = await run([
      { name: 'fetch_status', arguments: { url: `${env.SERVICES_URL}/web/plain.txt?tool=${tag}` } },
      { name: 'fetch_status', arguments: { url: `http://127.1:${intranet.port}/?tool=${tag}` } },
    ]);
    expect(allowed).toMatchObject({ tool_status: 'success', content: 'HTTP 200: plain text body\n  kept   as is' });
    expect(refused?.content).toBe(
      `Error: refused: http://127.0.0.1:${intranet.port}/?tool=${tag} is refused: 127.0.0.1 is a loopback address (set EGRESS_ALLOW_HOSTS to allow a development host)`,
    );
    expect((await received(tag)).map((request) => request.path)).toEqual(['/web/plain.txt']);
  });
});

describe('outbound requests from tool code through the HTTP API', () => {
  const reach = (url: string, way: string): Call => ({ name: 'reach_network', arguments: { url, way } });

  /**
   * A refused request as reach_network reports it; node:http in workerd reports a request its fetch
   * refused only to the log, so the tool sees no answer (the request log shows nothing was sent).
   */
  function expectRefused(result: Message | undefined, way: unknown, reason: RegExp, label = String(way)): void {
    expect(result?.tool_status, label).toBe('error');
    expect(result?.content, label).toMatch(way === 'node_http' ? /^Error: failed: no answer within/ : reason);
  }

  it('EXE-10: every way a tool reaches the network without state is checked: the intranet and a loopback name of the allowed port receive nothing', async () => {
    const tag = marker();
    const targets = [`${env.INTRANET_URL}/?way=${tag}`, `http://localhost:${services.port}/web/plain.txt?way=${tag}`];
    const calls = TOOL_NETWORK_WAYS.flatMap(({ way }) => targets.map((url) => reach(url, way)));
    const results = await run(calls);
    for (const [index, call] of calls.entries()) {
      const { way, url } = call.arguments;
      expectRefused(results[index], way, /^Error: refused: .*is refused/, `${way} ${url}`);
    }
    expect(await received(tag)).toEqual([]);
  });

  it('EXE-10: the refusal names the URL and the reason, as state.fetch does; WebSocket and EventSource say what to use', async () => {
    const tag = marker();
    const url = `http://127.1:${intranet.port}/?why=${tag}`;
    const results = await run([reach(url, 'global'), reach(url, 'websocket'), reach(url, 'event_source')]);
    expect(results.map((message) => message.content)).toEqual([
      `Error: refused: http://127.0.0.1:${intranet.port}/?why=${tag} is refused: 127.0.0.1 is a loopback address (set EGRESS_ALLOW_HOSTS to allow a development host)`,
      `Error: refused: tool "reach_network": new WebSocket() is refused inside a tool call, where the network is checked; open it with fetch(url, { headers: { Upgrade: 'websocket' } }), which the call's rules check`,
      `Error: refused: tool "reach_network": new EventSource() is refused inside a tool call, where the network is checked; read the stream from fetch(url), which the call's rules check`,
    ]);
    expect(await received(tag)).toEqual([]);
  });

  it('EXE-10: the checked ways still reach an allowed host', async () => {
    const tag = marker();
    const ways = TOOL_NETWORK_WAYS.filter((item) => item.checked);
    const results = await run(ways.map(({ way }) => reach(`${env.SERVICES_URL}/web/plain.txt?ok=${tag}`, way)));
    for (const [index, { way }] of ways.entries()) {
      expect(results[index], way).toMatchObject({ tool_status: 'success' });
      expect(results[index]?.content, way).toMatch(/^HTTP 200/);
    }
    const arrived = await received(tag);
    expect(arrived.map((request) => request.path)).toEqual(ways.map(() => '/web/plain.txt'));
  });

  it('EXE-10: a redirect from the allowed host is refused at the hop for the global fetch, the target never requested', async () => {
    const tag = marker();
    const targets = redirectTargets(Number(services.port), Number(intranet.port), `/hop?hop=${tag}`);
    const results = await run(
      targets.map((target) =>
        reach(`${env.SERVICES_URL}/web/redirect-to?location=${encodeURIComponent(target)}`, 'global'),
      ),
    );
    for (const [index, target] of targets.entries()) {
      expect(results[index]?.content, target).toMatch(/^Error: refused: redirected to a refused URL: /);
    }
    const tagged = targets.filter((target) => target.includes(tag));
    expect((await received(tag)).map((request) => request.path)).toEqual(tagged.map(() => '/web/redirect-to'));
  });

  it('EXE-10: a net.fetch deny rule refuses the global fetch to a host the egress policy allows', async () => {
    const tag = marker();
    const ways = TOOL_NETWORK_WAYS.filter((item) => item.checked);
    const results = await run(
      ways.map(({ way }) => reach(`${env.SERVICES_URL}/web/plain.txt?denied=${tag}`, way)),
      {},
      'egress_denied',
    );
    for (const [index, { way }] of ways.entries()) {
      expectRefused(
        results[index],
        way,
        /^Error: failed: Denied by the manifest rule \(net\.fetch, 127\.0\.0\.1, deny\)/,
      );
    }
    expect(await received(tag)).toEqual([]);
  });

  it('EXE-10: requests from an abort listener, from work left after the call returned, from access and from requireApproval: none reaches the intranet', async () => {
    const tag = marker();
    for (const { label, tool } of TOOL_NETWORK_OUTSIDE_BODY) {
      const url = `${env.INTRANET_URL}/?${tool}=${tag}`;
      const [, outcome] = await run([
        { name: tool, arguments: { url } },
        { name: 'network_outcome', arguments: { url } },
      ]);
      const expected = {
        fetch_on_abort: `refused: ${new URL(url).href} is refused: 127.0.0.1 is a loopback address`,
        fetch_after_return: 'failed: this call of tool "fetch_after_return" has ended (it returned)',
        fetch_in_access: `refused: tool "fetch_in_access": access decides whether a call may run and cannot reach the network`,
        fetch_in_approval: `refused: tool "fetch_in_approval": requireApproval decides whether a call may run and cannot reach the network`,
      }[tool];
      expect(outcome?.content?.startsWith(expected), `${label}: ${outcome?.content}`).toBe(true);
    }
    expect(await received(tag)).toEqual([]);
  });

  it("EXE-10: the runtime's own model request inside a tool call (a nested prompt) is not held to the call's rules", async () => {
    for (const agent of ['egress', 'egress_denied']) {
      const [answer] = await run([{ name: 'egress_helper', arguments: { message: `nested ${agent}` } }], {}, agent);
      expect(answer, agent).toMatchObject({ tool_status: 'success', content: `echo: nested ${agent}` });
    }
  });
});
