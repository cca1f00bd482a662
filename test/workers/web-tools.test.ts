/**
 * `web_search` and `web_fetch` through the HTTP API on workerd (LOCK-1, LOCK-3, LOCK-6): a scripted
 * model on agent `web` calls the tools against the fake web services of global-setup.ts (search APIs
 * speaking Brave's, Tavily's and SearXNG's formats, pages, redirects, an endpoint that never answers).
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { selectProvider } from '../../src/tools/web-search/providers/index.js';
import { createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { outsideData } from '../support/outside-data.js';

interface Call {
  name: 'web_search' | 'web_fetch';
  arguments: Record<string, unknown>;
}

interface WebRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Runs one thread of agent `web` whose model makes `steps` (each a list of calls), then stops. */
async function run(variables: Record<string, string>, steps: Call[][]): Promise<{ id: string; results: Message[] }> {
  const id = await createThread({
    agent: 'web',
    variables,
    messages: [{ content: directive([...steps.map((toolCalls) => ({ toolCalls })), { text: 'done' }]) }],
  });
  const log = await settled(id);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  return { id, results: log.filter((message) => message.role === 'tool') };
}

async function one(variables: Record<string, string>, call: Call): Promise<Message> {
  const { results } = await run(variables, [[call]]);
  expect(results).toHaveLength(1);
  return results[0] as Message;
}

function search(query: string, max_results?: number): Call {
  return { name: 'web_search', arguments: max_results === undefined ? { query } : { query, max_results } };
}

function fetchPage(url: string, format?: 'markdown' | 'text'): Call {
  return { name: 'web_fetch', arguments: format === undefined ? { url } : { url, format } };
}

/** What the fake web services received in requests mentioning `marker`. */
async function received(marker: string): Promise<WebRequest[]> {
  const response = await fetch(`${env.SERVICES_URL}/web/requests?containing=${encodeURIComponent(marker)}`);
  return (await response.json()) as WebRequest[];
}

function parsed(message: Message): { results: { title: string; url: string; snippet: string }[] } {
  expect(message.tool_status).toBe('success');
  return JSON.parse(outsideData(message.content)) as { results: { title: string; url: string; snippet: string }[] };
}

const marker = () => `m${crypto.randomUUID().slice(0, 8)}`;
const brave = () => ({
  BRAVE_SEARCH_API_KEY: `brave-${crypto.randomUUID()}`,
  BRAVE_SEARCH_BASE_URL: `${env.SERVICES_URL}/web/brave`,
});
const tavily = () => ({
  TAVILY_API_KEY: `tvly-${crypto.randomUUID()}`,
  TAVILY_BASE_URL: `${env.SERVICES_URL}/web/tavily`,
});
const searxng = () => ({ SEARXNG_URL: `${env.SERVICES_URL}/web/searxng` });

describe('web_search', () => {
  it('LOCK-3: Brave results are mapped, the key goes in X-Subscription-Token and never into the tool message', async () => {
    const query = `cats ${marker()}`;
    const variables = brave();
    const message = await one(variables, search(query, 3));
    const { results } = parsed(message);
    expect(results).toEqual(
      [1, 2, 3].map((n) => ({
        title: `Brave result ${n}`,
        url: `https://brave.example/${encodeURIComponent(query)}/${n}`,
        snippet: `About ${query} & more (${n})`,
      })),
    );
    const [request] = await received(query);
    expect(request?.path).toBe('/web/brave/res/v1/web/search');
    expect(request?.query).toEqual({ q: query, count: '3' });
    expect(request?.headers['x-subscription-token']).toBe(variables.BRAVE_SEARCH_API_KEY);
    expect(JSON.stringify(message)).not.toContain(variables.BRAVE_SEARCH_API_KEY);
    expect(JSON.stringify(message)).not.toContain('[secret]');
    expect(message.envelope).toMatchObject({ type: 'output' });
  });

  it('LOCK-3: Tavily gets a POST with a bearer key and max_results; its results are mapped', async () => {
    const query = `dogs ${marker()}`;
    const variables = tavily();
    const message = await one(variables, search(query, 2));
    expect(parsed(message).results).toEqual(
      [1, 2].map((n) => ({
        title: `Tavily result ${n}`,
        url: `https://tavily.example/${encodeURIComponent(query)}/${n}`,
        snippet: `About ${query} (${n})`,
      })),
    );
    const [request] = await received(query);
    expect(request).toMatchObject({ method: 'POST', path: '/web/tavily/search' });
    expect(request?.headers.authorization).toBe(`Bearer ${variables.TAVILY_API_KEY}`);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ query, max_results: 2 });
    expect(JSON.stringify(message)).not.toContain(variables.TAVILY_API_KEY);
  });

  it('LOCK-3: SearXNG is asked for JSON and its page is cut to max_results (default 5)', async () => {
    const query = `birds ${marker()}`;
    const { results } = parsed(await one(searxng(), search(query)));
    expect(results).toHaveLength(5);
    expect(results[0]).toEqual({
      title: 'SearXNG result 1',
      url: `https://searxng.example/${encodeURIComponent(query)}/1`,
      snippet: `About ${query} (1)`,
    });
    const [request] = await received(query);
    expect(request?.query).toEqual({ q: query, format: 'json' });
  });

  it('LOCK-3: a refused key, a rate limit and a server error become clear errors without the key', async () => {
    const wrongKey = `wrong-${crypto.randomUUID()}`;
    const refused = await one(
      { BRAVE_SEARCH_API_KEY: wrongKey, BRAVE_SEARCH_BASE_URL: `${env.SERVICES_URL}/web/brave` },
      search('anything'),
    );
    expect(refused).toMatchObject({ tool_status: 'error' });
    // The credential routine's hint names the one key of the three the error names (CRED-1).
    expect(refused.content).toBe(
      'Error: web_search: Brave Search refused the request (HTTP 401): check the BRAVE_SEARCH_API_KEY variable\nCredential hint: the service answered HTTP 401. Variables to refresh: BRAVE_SEARCH_API_KEY. Call store_secret for each, then retry this call once.',
    );
    const tavilyVariables = tavily();
    const limited = await one(tavilyVariables, search('fail:429 please'));
    expect(limited.content).toBe(
      'Error: web_search: Tavily is rate limiting or out of quota (HTTP 429); try again later',
    );
    const failed = await one(searxng(), search('fail:503 please'));
    expect(failed.content).toBe('Error: web_search: SearXNG failed (HTTP 503); try again later');
    const all = JSON.stringify([refused, limited, failed]);
    expect(all).not.toContain(wrongKey);
    expect(all).not.toContain(tavilyVariables.TAVILY_API_KEY);
    expect(all).not.toContain('[secret]');
  });

  it('LOCK-3: without a configured provider the call fails naming the variables to set', async () => {
    const message = await one({}, search('anything'));
    expect(message).toMatchObject({ tool_status: 'error' });
    expect(message.content).toBe(
      'Error: web_search: no web search provider is configured: set one of the variables BRAVE_SEARCH_API_KEY, TAVILY_API_KEY, SEARXNG_URL on the thread, its agent or its prompt',
    );
  });

  it('LOCK-3: the provider is picked by the thread id, the same for every call of the thread', async () => {
    const variables = { ...brave(), ...tavily(), ...searxng() };
    const seen = new Set<string>();
    for (let index = 0; index < 4; index++) {
      const tag = marker();
      const { id, results } = await run(variables, [[search(`${tag} one`), search(`${tag} two`)]]);
      expect(results.map((message) => message.tool_status)).toEqual(['success', 'success']);
      const requests = await received(tag);
      expect(requests).toHaveLength(2);
      const expected = selectProvider(id, variables).name;
      for (const request of requests) expect(request.path).toMatch(new RegExp(`^/web/${expected}/`));
      seen.add(expected);
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('LOCK-3: the per-thread call cap refuses the call after the limit (WEB_SEARCH_MAX_CALLS=2)', async () => {
    const tag = marker();
    const { results } = await run({ ...searxng(), WEB_SEARCH_MAX_CALLS: '2' }, [
      [search(`${tag} 1`), search(`${tag} 2`)],
      [search(`${tag} 3`)],
    ]);
    expect(results.map((message) => message.tool_status)).toEqual(['success', 'success', 'error']);
    expect(results[2]?.content).toBe(
      'Error: web_search: this thread has used all 2 of its searches; answer with what you have',
    );
    expect(await received(tag)).toHaveLength(2);
  });

  it('LOCK-3: a provider that never answers times out after WEB_SEARCH_TIMEOUT_MS and the request is dropped', async () => {
    const query = `slow ${marker()}`;
    const started = Date.now();
    const message = await one(
      {
        BRAVE_SEARCH_API_KEY: 'brave-key',
        BRAVE_SEARCH_BASE_URL: `${env.SERVICES_URL}/web/hang/brave`,
        WEB_SEARCH_TIMEOUT_MS: '300',
      },
      search(query),
    );
    expect(message.content).toBe('Error: web_search: brave did not answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    // The endpoint hangs until its client goes away: the abort really closed the request.
    const [request] = await until(
      () => received(query),
      (requests) => requests[0]?.closed === true,
    );
    expect(request?.path).toBe('/web/hang/brave/res/v1/web/search');
  });
});

describe('web_fetch', () => {
  const page = (path: string) => `${env.SERVICES_URL}/web/${path}`;

  it('LOCK-3: an HTML page becomes markdown: headings, absolute links, lists, code and tables; no scripts', async () => {
    const message = await one({}, fetchPage(page('page.html')));
    expect(message.tool_status).toBe('success');
    const content = message.content ?? '';
    expect(content).toContain('# Sample _heading_');
    expect(content).toContain(`Intro with a [relative link](${page('other.html')}) and **bold** text.`);
    expect(content).toContain('## List\n\n- first item\n- second item\n  1. nested one');
    expect(content).toContain('```js\nconst x = 1;\nconsole.log(x);\n```');
    expect(content).toContain('Inline `code()` here.');
    expect(content).toContain('| Name | Value |\n| --- | --- |\n| a | 1 |');
    expect(content).not.toContain('script-text');
    expect(content).not.toContain('color: red');
    expect(content).not.toContain('Sample page');
  });

  it('LOCK-3: format text drops the markdown syntax; text/plain and JSON pass through', async () => {
    const { results } = await run({}, [
      [fetchPage(page('page.html'), 'text'), fetchPage(page('plain.txt')), fetchPage(page('data.json'))],
    ]);
    const [text, plain, json] = results.map((message) => outsideData(message.content));
    expect(text).toContain('Sample heading\n\nIntro with a relative link and bold text.');
    expect(text).not.toContain('](');
    expect(plain).toBe('plain text body\n  kept   as is');
    expect(json).toBe('{"answer":42}');
  });

  it('LOCK-3: follows up to 5 redirects, refuses a sixth and a redirect to another scheme', async () => {
    const { results } = await run({}, [
      [fetchPage(page('redirect/5')), fetchPage(page('redirect/6')), fetchPage(page('redirect-ftp'))],
    ]);
    expect(results[0]?.tool_status).toBe('success');
    expect(results[0]?.content).toContain('# Sample _heading_');
    expect(results[1]?.content).toBe('Error: web_fetch: more than 5 redirects, last to /web/page.html');
    expect(results[2]?.content).toBe(
      'Error: web_fetch: redirected to a refused URL: only http and https URLs can be fetched, not ftp:',
    );
  });

  it('LOCK-3: ftp://, file:// and URLs with credentials are refused before any request', async () => {
    const { results } = await run({}, [
      [
        fetchPage('ftp://files.example/readme.txt'),
        fetchPage('file:///etc/passwd'),
        fetchPage(`${env.SERVICES_URL.replace('://', '://user:pw@')}/web/page.html`),
      ],
    ]);
    expect(results.map((message) => message.content)).toEqual([
      'Error: web_fetch: only http and https URLs can be fetched, not ftp:',
      'Error: web_fetch: only http and https URLs can be fetched, not file:',
      'Error: web_fetch: URLs with credentials (user:password@) are refused',
    ]);
  });

  it('LOCK-3: binary content is refused, by its content type or, without one, by its bytes', async () => {
    const { results } = await run({}, [[fetchPage(page('image.png')), fetchPage(page('untyped'))]]);
    expect(results.map((message) => message.content)).toEqual([
      `Error: web_fetch: ${page('image.png')} is image/png, a binary type that cannot be read as text`,
      `Error: web_fetch: ${page('untyped')} is binary content that cannot be read as text`,
    ]);
  });

  it('LOCK-3: the download stops at the 5 MB cap and says so', async () => {
    const message = await one({}, fetchPage(page('large.html')));
    expect(message.tool_status).toBe('success');
    expect(message.content).toContain('start-marker');
    expect(message.content).not.toContain('end-marker');
    expect(outsideData(message.content)).toMatch(
      /\[web_fetch: the download stopped at 5242880 bytes; the rest of the page was not read\]$/,
    );
  });

  it('LOCK-6: text past 200 KB comes back as a head with truncated: true', async () => {
    const message = await one({}, fetchPage(page('long-text.html')));
    expect(message.tool_status).toBe('success');
    expect(message.envelope?.metadata).toMatchObject({ truncated: true });
    expect(new TextEncoder().encode(message.content ?? '').byteLength).toBeLessThan(205 * 1024);
    expect(message.content).toContain('paragraph 0 lorem');
  });

  it('LOCK-3: a page that never answers times out after WEB_FETCH_TIMEOUT_MS', async () => {
    const started = Date.now();
    const message = await one({ WEB_FETCH_TIMEOUT_MS: '300' }, fetchPage(page('hang/page')));
    expect(message.content).toBe(`Error: web_fetch: ${page('hang/page')} did not answer within 300 ms`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
