/**
 * `state.fetch`: every hop checked before it is sent, redirects followed by hand, headers
 * that could carry credentials dropped on a hop to another origin; and `web_fetch` driven through the
 * engine loop, sending nothing to a refused address. The network is a fake transport that records
 * what would have been sent.
 */
import { EgressRefused, type Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { egressPolicy } from '../../../../src/engine/egress/egress-policy.js';
import { type FetchTransport, outboundFetch } from '../../../../src/engine/egress/outbound-fetch.js';
import { webFetch } from '../../../../src/tools/web-fetch/web-fetch.js';
import { expectRefusal } from '../../../support/egress-refusals.js';
import { refusedUrls } from '../../../support/hostile-corpus.js';
import { createHarness } from '../../../support/memory-store.js';
import { markedAs } from '../../../support/outside-data.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  redirect: RequestInit['redirect'];
}

/** A network of canned answers by URL; anything else answers 200 "ok". Records every request. */
function fakeNetwork(answers: Record<string, () => Response> = {}) {
  const sent: Sent[] = [];
  const transport: FetchTransport = async (url, init) => {
    const request = new Request(url, init);
    sent.push({
      url: url.href,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.text() : '',
      redirect: init.redirect,
    });
    return answers[url.href]?.() ?? new Response('ok', { headers: { 'content-type': 'text/plain' } });
  };
  return { sent, transport };
}

const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });

async function refusedWith(promise: Promise<unknown>): Promise<EgressRefused> {
  const error = await promise.then(
    () => new Error('resolved'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EgressRefused);
  return error as EgressRefused;
}

describe('state.fetch', () => {
  it('LOCK-5: a refused URL is never sent, whatever its spelling', async () => {
    const { sent, transport } = fakeNetwork();
    for (const item of refusedUrls(8080, '/x')) {
      const error = await refusedWith(outboundFetch({ egress: egressPolicy(), transport }, item.url));
      expectRefusal(error.message, item);
    }
    expect(sent).toEqual([]);
  });

  it('LOCK-5: a redirect to a refused address is refused at the hop; the target is never requested', async () => {
    for (const target of ['http://localhost:8080/admin', 'http://169.254.169.254/latest/meta-data/', '//[::1]/x']) {
      const { sent, transport } = fakeNetwork({ 'https://public.example/go': redirect(target) });
      const error = await refusedWith(
        outboundFetch({ egress: egressPolicy(), transport }, 'https://public.example/go'),
      );
      expect(error.message).toMatch(/^redirected to a refused URL: \S+ is refused: \S+ is /);
      expect(sent.map((request) => request.url)).toEqual(['https://public.example/go']);
    }
  });

  it('LOCK-5: each hop is requested with redirect manual; at most 5 redirects are followed', async () => {
    const chain: Record<string, () => Response> = {};
    for (let hop = 0; hop < 6; hop++) chain[`https://a.example/${hop}`] = redirect(`/${hop + 1}`, 301);
    const five = fakeNetwork({ ...chain, 'https://a.example/5': () => new Response('end') });
    const response = await outboundFetch({ egress: egressPolicy(), transport: five.transport }, 'https://a.example/0');
    expect(await response.text()).toBe('end');
    expect(five.sent.map((request) => request.url)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `https://a.example/${n}`));
    expect(five.sent.every((request) => request.redirect === 'manual')).toBe(true);
    const six = fakeNetwork(chain);
    const error = await refusedWith(
      outboundFetch({ egress: egressPolicy(), transport: six.transport }, 'https://a.example/0'),
    );
    expect(error.message).toBe('more than 5 redirects, last to /6');
    expect(six.sent).toHaveLength(6);
  });

  it('LOCK-5: the host check runs before every hop, after the policy, and its refusal stops the chain', async () => {
    const { sent, transport } = fakeNetwork({
      'https://a.example/': redirect('https://b.example/'),
      'https://b.example/': redirect('https://c.example/'),
    });
    const checked: string[] = [];
    const checkHost = (url: URL) => {
      checked.push(url.href);
      if (url.hostname === 'c.example') throw new EgressRefused(`net.fetch denies ${url.hostname}`, url.href);
    };
    const error = await refusedWith(
      outboundFetch({ egress: egressPolicy(), transport, checkHost }, 'https://a.example/'),
    );
    expect(error.message).toBe('net.fetch denies c.example');
    expect(checked).toEqual(['https://a.example/', 'https://b.example/', 'https://c.example/']);
    expect(sent.map((request) => request.url)).toEqual(['https://a.example/', 'https://b.example/']);
    // The policy refuses first: the hook never sees a refused URL.
    checked.length = 0;
    await refusedWith(outboundFetch({ egress: egressPolicy(), transport, checkHost }, 'http://127.0.0.1/'));
    expect(checked).toEqual([]);
  });

  it('LOCK-5: a hop to another origin keeps only accept, accept-language, content-type and user-agent', async () => {
    const { sent, transport } = fakeNetwork({
      'https://api.example/search': redirect('https://api.example/v2/search', 307),
      'https://api.example/v2/search': redirect('https://elsewhere.example/collect', 307),
    });
    await outboundFetch({ egress: egressPolicy(), transport }, 'https://api.example/search', {
      method: 'POST',
      body: '{"q":1}',
      headers: {
        authorization: 'Bearer k',
        'x-subscription-token': 't',
        cookie: 'c=1',
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': 'agent',
      },
    });
    const [first, sameOrigin, otherOrigin] = sent;
    expect(first?.headers).toMatchObject({ authorization: 'Bearer k', 'x-subscription-token': 't' });
    expect(sameOrigin).toMatchObject({ method: 'POST', body: '{"q":1}' });
    expect(sameOrigin?.headers).toMatchObject({
      authorization: 'Bearer k',
      'x-subscription-token': 't',
      cookie: 'c=1',
    });
    expect(otherOrigin).toMatchObject({ method: 'POST', body: '{"q":1}', url: 'https://elsewhere.example/collect' });
    expect(otherOrigin?.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'agent',
    });
  });

  it('LOCK-5: 303 (and 301/302 after a POST) continue as a GET without the body', async () => {
    for (const status of [301, 302, 303]) {
      const { sent, transport } = fakeNetwork({ 'https://a.example/form': redirect('/done', status) });
      await outboundFetch(
        { egress: egressPolicy(), transport },
        new Request('https://a.example/form', {
          method: 'POST',
          body: new URLSearchParams({ a: '1' }),
        }),
      );
      expect(sent[0]).toMatchObject({ method: 'POST', body: 'a=1' });
      expect(sent[0]?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
      expect(sent[1]).toMatchObject({ url: 'https://a.example/done', method: 'GET', body: '' });
      expect(sent[1]?.headers['content-type']).toBeUndefined();
    }
  });

  it("LOCK-5: redirect 'manual' returns the redirect; 'error' rejects it", async () => {
    const { sent, transport } = fakeNetwork({ 'https://a.example/': redirect('http://127.0.0.1/') });
    const manual = await outboundFetch({ egress: egressPolicy(), transport }, 'https://a.example/', {
      redirect: 'manual',
    });
    expect(manual.status).toBe(302);
    const error = await refusedWith(
      outboundFetch({ egress: egressPolicy(), transport }, 'https://a.example/', { redirect: 'error' }),
    );
    expect(error.message).toBe('https://a.example/ redirected to http://127.0.0.1/, and redirects are refused');
    expect(sent.map((request) => request.url)).toEqual(['https://a.example/', 'https://a.example/']);
  });

  it('LOCK-5: an allowed development host is reached, on its port only', async () => {
    const { sent, transport } = fakeNetwork();
    const egress = egressPolicy('127.0.0.1:8080');
    expect((await outboundFetch({ egress, transport }, 'http://2130706433:8080/a')).status).toBe(200);
    await refusedWith(outboundFetch({ egress, transport }, 'http://127.0.0.1:8081/a'));
    expect(sent.map((request) => request.url)).toEqual(['http://127.0.0.1:8080/a']);
  });

  it('LOCK-5: a ThreadState fetches through the policy (the default allows no private host)', async () => {
    const { sent, transport } = fakeNetwork();
    const refused = await refusedWith(createHarness({ transport }).state().fetch('http://[::1]:3000/'));
    expect(refused.message).toContain('[::1] is the loopback address');
    const allowed = createHarness({ transport, egress: egressPolicy('[::1]:3000') }).state();
    expect(await (await allowed.fetch('http://[::1]:3000/')).text()).toBe('ok');
    expect(sent.map((request) => request.url)).toEqual(['http://[::1]:3000/']);
  });
});

describe('web_fetch through the loop', () => {
  function run(transport: FetchTransport, urls: string[]) {
    const h = createHarness({
      builtinTools: { web_fetch: webFetch },
      prompt: { tools: ['web_fetch'] },
      transport,
      // Steps of at most 8 calls: concurrent calls of one step share the turn's abort signal.
      script: [
        ...Array.from({ length: Math.ceil(urls.length / 8) }, (_, step) => ({
          toolCalls: urls.slice(step * 8, step * 8 + 8).map((url) => ({ name: 'web_fetch', arguments: { url } })),
        })),
        { text: 'done' },
      ],
    });
    return h.send('fetch').then(() => h.byRole('tool') as Message[]);
  }

  it('LOCK-5: every refused address becomes a clear error and nothing is sent', async () => {
    const { sent, transport } = fakeNetwork();
    const cases = refusedUrls(8080, '/page');
    const results = await run(
      transport,
      cases.map((item) => item.url),
    );
    expect(results).toHaveLength(cases.length);
    for (const [index, item] of cases.entries()) {
      expect(results[index]?.tool_status, item.label).toBe('error');
      expectRefusal(results[index]?.content ?? '', item, 'Error: web_fetch: ');
    }
    expect(sent).toEqual([]);
  });

  it('LOCK-5: a public page is fetched with the tool headers; a redirect inward is refused at the hop', async () => {
    const { sent, transport } = fakeNetwork({
      'https://docs.example/page': () => new Response('<h1>Hi</h1>', { headers: { 'content-type': 'text/html' } }),
      'https://docs.example/moved': redirect('http://10.0.0.5/secret'),
    });
    const [page, moved] = await run(transport, ['https://docs.example/page', 'https://docs.example/moved']);
    expect(page).toMatchObject({ tool_status: 'success', content: markedAs('# Hi') });
    expect(moved?.content).toBe(
      'Error: web_fetch: redirected to a refused URL: http://10.0.0.5/secret is refused: 10.0.0.5 is a private address (RFC 1918) (set EGRESS_ALLOW_HOSTS to allow a development host)',
    );
    expect(sent.map((request) => request.url)).toEqual(['https://docs.example/page', 'https://docs.example/moved']);
    expect(sent[0]?.headers['user-agent']).toMatch(/StandardAgents-web_fetch/);
  });

  it('LOCK-5: access() names the canonical host for the capability and permission checks', () => {
    const access = (url: string) => webFetch.access?.({ url, format: 'markdown' });
    expect(access('HTTP://Example.COM./a')).toEqual({ hosts: ['example.com'], subject: 'HTTP://Example.COM./a' });
    expect(access('http://2130706433:8080/')?.hosts).toEqual(['127.0.0.1']);
    expect(access('http://[0:0::1]/')?.hosts).toEqual(['[::1]']);
    expect(access('ftp://example.com/')?.hosts).toEqual([]);
    expect(access('not a url')?.hosts).toEqual([]);
  });
});
