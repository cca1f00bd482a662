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
import { loopbackSpellings, type RefusedUrlCase, refusedUrls } from '../support/hostile-corpus.js';

interface Call {
  name: 'web_fetch' | 'web_search' | 'fetch_status';
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

/** One thread of agent `egress` whose model makes the calls, at most 10 per step, then stops. */
async function run(calls: Call[], variables: Record<string, string> = {}): Promise<Message[]> {
  const steps = Array.from({ length: Math.ceil(calls.length / 10) }, (_, step) => ({
    toolCalls: calls.slice(step * 10, step * 10 + 10),
  }));
  const id = await createThread({
    agent: 'egress',
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
    const started = Date.now();
    const results = await run(cases.map((item) => fetchPage(item.url)));
    for (const [index, item] of cases.entries()) {
      expect(results[index]?.tool_status, item.label).toBe('error');
      expectRefusal(results[index]?.content ?? '', item, 'Error: web_fetch: ');
    }
    expect(await received(tag)).toEqual([]);
    // No attempt waited on a network: 169.254.169.254 would hang until the 30 s limit.
    expect(Date.now() - started).toBeLessThan(20_000);
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
        content: 'plain text body\n  kept   as is',
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
