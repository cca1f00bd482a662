/**
 * The pure parts of `web_search` and `web_fetch` (LOCK-1, LOCK-3, LOCK-5, LOCK-6, LOCK-7): HTML
 * conversion, provider selection, the adapters' request and response mapping against a stubbed
 * fetch, URL and content-type checks, and the tools' declarations.
 */
import type { ThreadState } from '@standardagents/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { egressPolicy } from '../../../src/engine/egress/egress-policy.js';
import { outboundFetch } from '../../../src/engine/egress/outbound-fetch.js';
import { lintTools } from '../../../src/spec/tool-lint.js';
import { positiveIntVariable } from '../../../src/spec/variables.js';
import { parseHtml } from '../../../src/tools/web-fetch/html-parser.js';
import { htmlToText } from '../../../src/tools/web-fetch/html-to-text.js';
import { classifyContentType, webFetch } from '../../../src/tools/web-fetch/web-fetch.js';
import {
  SEARCH_ADAPTERS,
  SearchProviderError,
  selectProvider,
  stableIndex,
} from '../../../src/tools/web-search/providers/index.js';
import { webSearch } from '../../../src/tools/web-search/web-search.js';

const md = (html: string, baseUrl = 'https://site.example/docs/page.html') =>
  htmlToText(html, { format: 'markdown', baseUrl });
const text = (html: string) => htmlToText(html, { format: 'text', baseUrl: 'https://site.example/' });

describe('html to markdown', () => {
  it('LOCK-3: keeps headings, paragraphs, emphasis and absolute links; drops head, scripts and styles', () => {
    const out =
      md(`<!doctype html><html><head><title>T</title><style>p{}</style><script>var a = "<p>no</p>";</script></head>
      <body><h1>Main  <em>title</em></h1><p>Some <b>bold</b> and
      <a href="../guide/start.html">a link</a>.</p><script>alert(1)</script><h3>Sub</h3><p>End&nbsp;&amp;&#x21;</p></body></html>`);
    expect(out).toBe(
      [
        '# Main _title_',
        '',
        'Some **bold** and [a link](https://site.example/guide/start.html).',
        '',
        '### Sub',
        '',
        'End &!',
      ].join('\n'),
    );
  });

  it('LOCK-3: renders nested and ordered lists with their markers and indentation', () => {
    const out = md(
      '<ul><li>one</li><li>two<ol start="3"><li>three</li><li>four</li></ol></li><li>five</ul><p>after</p>',
    );
    expect(out).toBe(['- one', '- two', '  3. three', '  4. four', '- five', '', 'after'].join('\n'));
  });

  it('LOCK-3: keeps code blocks verbatim with their language, and inline code in backticks', () => {
    const out = md(
      '<p>Call <code>run()</code> or <code>a`b</code>.</p><pre><code class="language-ts">if (a &lt; b) {\n  go();\n}\n</code></pre>',
    );
    expect(out).toBe(['Call `run()` or ``a`b``.', '', '```ts', 'if (a < b) {', '  go();', '}', '```'].join('\n'));
  });

  it('LOCK-3: renders tables, quotes, rules, line breaks and images', () => {
    const out = md(
      '<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody><tr><td>a|b</td><td>1</td></tr><tr><td>c</td></tr></tbody></table>' +
        '<blockquote><p>quoted</p><p>twice</p></blockquote><hr><p>line<br>break</p><img src="/i.png" alt="An image"><img src="data:image/png;base64,AAAA" alt="inline">',
    );
    expect(out).toBe(
      [
        '| Name | Size |',
        '| --- | --- |',
        '| a\\|b | 1 |',
        '| c |  |',
        '',
        '> quoted',
        '>',
        '> twice',
        '',
        '---',
        '',
        'line',
        'break',
        '',
        '![An image](https://site.example/i.png)',
      ].join('\n'),
    );
  });

  it('LOCK-3: leaves no stray markup for empty elements, fragment links or javascript: links', () => {
    const out = md(
      '<p><b> </b>x <a href="#top">top</a> <a href="javascript:void(0)">js</a><a href="/e"></a><h2></h2></p>',
    );
    expect(out).toBe('x top js');
  });

  it('LOCK-3: tolerates broken markup: implied end tags, stray < and unclosed elements', () => {
    expect(md('<p>one<p>two<div>three</div>a < b <span>unclosed')).toBe('one\n\ntwo\n\nthree\na < b unclosed');
    expect(md('<ul><li>a<li>b</ul>')).toBe('- a\n- b');
    expect(md('text <a href="/x"')).toBe('text <a href="/x"');
    // Names that exist on Object.prototype are ordinary unknown names.
    expect(
      md('<constructor>a</constructor> <span constructor="1" __proto__="x">b</span> &constructor; &hasOwnProperty;'),
    ).toBe('a b &constructor; &hasOwnProperty;');
  });

  it('LOCK-3: a block inside a link stays on the link line', () => {
    expect(md('<a href="/card"><div><h3>Title</h3><p>desc</p></div></a>')).toBe(
      '[Title desc](https://site.example/card)',
    );
  });

  it('LOCK-3: resolves against <base href> when the page declares one', () => {
    expect(md('<head><base href="https://cdn.example/root/"></head><a href="x">x</a>')).toBe(
      '[x](https://cdn.example/root/x)',
    );
  });

  it('LOCK-3: text format keeps the words and structure without markdown syntax', () => {
    const out = text(
      '<h1>Title</h1><p>A <a href="/x">link</a> and <strong>bold</strong>.</p><ul><li>item</li></ul><pre>code\n  here</pre><table><tr><td>a</td><td>b</td></tr></table>',
    );
    expect(out).toBe(['Title', '', 'A link and bold.', '', '- item', '', 'code', '  here', '', 'a | b'].join('\n'));
  });

  it('LOCK-3: very deep nesting and multi-megabyte markup convert quickly', () => {
    expect(md(`${'<div><span>'.repeat(20_000)}deep text`)).toBe('deep text');
    const dense = `<p>${'word <b>bold</b> <a href="/x">link</a> '.repeat(50_000)}</p>`;
    const started = Date.now();
    const out = md(dense);
    expect(out.startsWith('word **bold** [link](https://site.example/x) word')).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('html entities and malformed markup', () => {
  it('LOCK-3: every named and numeric character reference is decoded', () => {
    expect(md('<p>I &hearts; &Delta; and&nbsp;more: &amp;lt; &#x1F600; &#128512; &AMP; &copy 2024</p>')).toBe(
      'I ♥ Δ and more: &lt; 😀 😀 & © 2024',
    );
  });

  it('LOCK-3: references in attributes are decoded, except a legacy name run into a query parameter', () => {
    expect(
      md(
        '<p><a href="/search?q=a&amp;b=c&lang=en&#38;x=&quot;y&quot;">find</a> <img alt="Tom &amp; Jerry" src="/t&#46;png"></p>',
      ),
    ).toBe('[find](https://site.example/search?q=a&b=c&lang=en&x=%22y%22) ![Tom & Jerry](https://site.example/t.png)');
  });

  it('LOCK-3: unclosed tags close with their parent, a stray </p> is dropped, <p> inside <p> starts a new one', () => {
    expect(md('<div><p>one <b>bold <i>both</div><p>two')).toBe('one **bold _both_**\n\ntwo');
    expect(md('<p>one</p></p>two')).toBe('one\n\ntwo');
    expect(md('<p>one<p>two</p>')).toBe('one\n\ntwo');
  });

  it('LOCK-3: script and style content is dropped, even when it looks like markup', () => {
    expect(md('<p>a<script>document.write("<p>x</p>")</script><style>p::after{content:"</p>"}</style>b</p>')).toBe(
      'ab',
    );
  });

  it('LOCK-3: the parser keeps title and textarea content as decoded text, script content as written', () => {
    const events: string[] = [];
    parseHtml(
      '<title>A &amp; <b>B</b></title><textarea>x <i>y</i> &lt;z&gt;</textarea><script>if (a < b) s = "&amp;</p>";</script>',
      {
        open: (name) => events.push(`<${name}>`),
        text: (text) => events.push(text),
        close: (name) => events.push(`</${name}>`),
      },
    );
    expect(events.join('')).toBe(
      '<title>A & <b>B</b></title><textarea>x <i>y</i> <z></textarea><script>if (a < b) s = "&amp;</p>";</script>',
    );
  });
});

describe('search provider selection', () => {
  const all = {
    BRAVE_SEARCH_API_KEY: 'brave-key',
    TAVILY_API_KEY: 'tvly-key',
    SEARXNG_URL: 'https://searx.example',
  };

  it('LOCK-3: the provider is stable per thread id', () => {
    for (const id of ['thread-a', 'thread-b', crypto.randomUUID()]) {
      const first = selectProvider(id, all).name;
      for (let run = 0; run < 5; run++) expect(selectProvider(id, all).name).toBe(first);
    }
  });

  it('LOCK-3: thread ids spread across every configured provider', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 600; index++) {
      const name = selectProvider(crypto.randomUUID(), all).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['brave', 'searxng', 'tavily']);
    for (const count of counts.values()) expect(count).toBeGreaterThan(120);
    expect(stableIndex('abc', 3)).toBe(stableIndex('abc', 3));
  });

  it('LOCK-3: only configured providers are picked, and WEB_SEARCH_PROVIDER pins one', () => {
    for (let index = 0; index < 50; index++) {
      expect(selectProvider(crypto.randomUUID(), { TAVILY_API_KEY: 'k' }).name).toBe('tavily');
      expect(selectProvider(crypto.randomUUID(), { ...all, WEB_SEARCH_PROVIDER: 'SearXNG' }).name).toBe('searxng');
    }
  });

  it('LOCK-3: no provider, an unconfigured pin or a bad base URL is a clear error', () => {
    expect(() => selectProvider('t', {})).toThrow(
      /no web search provider is configured: set one of the variables BRAVE_SEARCH_API_KEY, TAVILY_API_KEY, SEARXNG_URL/,
    );
    expect(() => selectProvider('t', { TAVILY_API_KEY: 'k', WEB_SEARCH_PROVIDER: 'brave' })).toThrow(
      /"brave", which is not configured: set BRAVE_SEARCH_API_KEY/,
    );
    expect(() => selectProvider('t', { TAVILY_API_KEY: 'k', WEB_SEARCH_PROVIDER: 'bing' })).toThrow(/unknown provider/);
    expect(() => selectProvider('t', { SEARXNG_URL: 'ftp://x' })).toThrow(SearchProviderError);
  });
});

describe('search adapters against a stubbed fetch', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** What web_search gives a provider: the egress-checked fetch (over the stubbed global) and a signal. */
  const call = () => ({
    fetch: (input: string | URL | Request, init?: RequestInit) =>
      outboundFetch({ egress: egressPolicy() }, input, init),
    signal: new AbortController().signal,
  });

  function stubFetch(status: number, body: unknown) {
    const calls: Request[] = [];
    vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
      calls.push(new Request(input, init));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    return calls;
  }

  it('LOCK-3: Brave sends the key as X-Subscription-Token and maps web.results, stripping highlights', async () => {
    const calls = stubFetch(200, {
      web: {
        results: [
          { title: 'A <strong>b</strong>', url: 'https://a.example/', description: 'x &amp; <strong>y</strong>' },
          { title: 'no url' },
          { title: 'B', url: 'https://b.example/', description: 'z' },
        ],
      },
    });
    const provider = selectProvider('t', {
      BRAVE_SEARCH_API_KEY: 'brave-secret',
      BRAVE_SEARCH_BASE_URL: 'https://b.test/',
    });
    const results = await provider.search('cats & dogs', 7, call());
    expect(results).toEqual([
      { title: 'A b', url: 'https://a.example/', snippet: 'x & y' },
      { title: 'B', url: 'https://b.example/', snippet: 'z' },
    ]);
    const url = new URL(calls[0]?.url ?? '');
    expect(url.origin + url.pathname).toBe('https://b.test/res/v1/web/search');
    expect(url.searchParams.get('q')).toBe('cats & dogs');
    expect(url.searchParams.get('count')).toBe('7');
    expect(calls[0]?.headers.get('x-subscription-token')).toBe('brave-secret');
  });

  it('LOCK-3: titles and snippets have every character reference decoded', async () => {
    stubFetch(200, {
      results: [{ title: 'I &hearts; &Delta;', url: 'https://e.example/', content: 'a&nbsp;b &amp;lt; &#x1F600;' }],
    });
    const provider = selectProvider('t', { SEARXNG_URL: 'https://searx.example' });
    expect(await provider.search('q', 5, call())).toEqual([
      { title: 'I ♥ Δ', url: 'https://e.example/', snippet: 'a b &lt; 😀' },
    ]);
  });

  it('LOCK-3: Tavily posts the query with a bearer key; SearXNG asks for JSON and is cut to max_results', async () => {
    const tavilyCalls = stubFetch(200, { results: [{ title: 'T', url: 'https://t.example/', content: 'c' }] });
    const tavily = selectProvider('t', { TAVILY_API_KEY: 'tvly-secret' });
    expect(await tavily.search('q', 3, call())).toEqual([{ title: 'T', url: 'https://t.example/', snippet: 'c' }]);
    expect(tavilyCalls[0]?.url).toBe('https://api.tavily.com/search');
    expect(tavilyCalls[0]?.method).toBe('POST');
    expect(tavilyCalls[0]?.headers.get('authorization')).toBe('Bearer tvly-secret');
    expect(await tavilyCalls[0]?.json()).toMatchObject({ query: 'q', max_results: 3 });

    const many = Array.from({ length: 10 }, (_, index) => ({ title: `${index}`, url: `https://s.example/${index}` }));
    const searxCalls = stubFetch(200, { results: many });
    const searx = selectProvider('t', { SEARXNG_URL: 'https://searx.example/base/' });
    expect(await searx.search('q', 4, call())).toHaveLength(4);
    const url = new URL(searxCalls[0]?.url ?? '');
    expect(url.pathname).toBe('/base/search');
    expect(url.searchParams.get('format')).toBe('json');
  });

  it('LOCK-3: 401, 429 and 5xx become clear errors that never carry the key or the response body', async () => {
    const cases: Array<[number, RegExp]> = [
      [401, /Brave Search refused the request \(HTTP 401\): check the BRAVE_SEARCH_API_KEY variable/],
      [403, /HTTP 403/],
      [429, /rate limiting or out of quota \(HTTP 429\)/],
      [503, /Brave Search failed \(HTTP 503\); try again later/],
    ];
    for (const [status, message] of cases) {
      stubFetch(status, { error: { detail: 'token brave-secret-key is invalid' } });
      const provider = selectProvider('t', { BRAVE_SEARCH_API_KEY: 'brave-secret-key' });
      const error = await provider.search('q', 5, call()).catch((e: Error) => e);
      expect(error).toBeInstanceOf(SearchProviderError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('brave-secret-key');
    }
  });

  it('LOCK-5: a provider base URL the egress policy refuses is never requested', async () => {
    const calls = stubFetch(200, { results: [] });
    for (const base of ['http://127.0.0.1:8888', 'http://searx.internal', 'http://[::1]']) {
      const provider = selectProvider('t', { SEARXNG_URL: base });
      const error = await provider.search('q', 5, call()).catch((e: Error) => e);
      expect(error).toBeInstanceOf(SearchProviderError);
      expect((error as Error).message).toMatch(
        /^SearXNG could not be reached: http:\/\/\S+\/search\?q=q&format=json is refused: \S+ is .*\(set EGRESS_ALLOW_HOSTS to allow a development host\)$/,
      );
    }
    expect(calls).toHaveLength(0);
  });

  it('LOCK-3: an answer that is not JSON is a clear error', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>oops</html>', { status: 200 }));
    const provider = selectProvider('t', { SEARXNG_URL: 'https://searx.example' });
    await expect(provider.search('q', 5, call())).rejects.toThrow('SearXNG answered with something other than JSON');
  });
});

describe('web_fetch checks', () => {
  it('LOCK-3: HTML is converted, text and JSON pass through, binary types are refused', () => {
    expect(classifyContentType('text/html; charset=utf-8')).toBe('html');
    expect(classifyContentType('application/xhtml+xml')).toBe('html');
    expect(classifyContentType('text/plain')).toBe('text');
    expect(classifyContentType('text/markdown')).toBe('text');
    expect(classifyContentType('application/json')).toBe('text');
    expect(classifyContentType('application/vnd.api+json')).toBe('text');
    expect(classifyContentType('application/rss+xml')).toBe('text');
    expect(classifyContentType('image/png')).toBe('binary');
    expect(classifyContentType('application/pdf')).toBe('binary');
    expect(classifyContentType('application/octet-stream')).toBe('binary');
    expect(classifyContentType(null)).toBeNull();
  });

  it('LOCK-3: numeric limits come from variables, with defaults and a clear error', () => {
    expect(positiveIntVariable({}, 'X', 25, 100)).toBe(25);
    expect(positiveIntVariable({ X: ' 3 ' }, 'X', 25, 100)).toBe(3);
    expect(positiveIntVariable({ X: '500' }, 'X', 25, 100)).toBe(100);
    expect(() => positiveIntVariable({ X: 'ten' }, 'X', 25, 100)).toThrow(
      'variable X must be a positive integer, got "ten"',
    );
    expect(() => positiveIntVariable({ X: '0' }, 'X', 25, 100)).toThrow(RangeError);
  });
});

describe('web tool time limits', () => {
  /** A thread state whose fetch never answers, only rejects with its signal's reason on abort. */
  function hangingState(tenvs: Record<string, string>, abortSignal?: AbortSignal): ThreadState {
    const fetch = (_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const state = {
      threadId: 't',
      tenvs,
      execution: abortSignal ? { abortSignal } : null,
      fetch,
      getValue: async () => undefined,
      setValue: async () => {},
    };
    return state as unknown as ThreadState;
  }

  it('LOCK-3, EXE-5: web_fetch tells its own time limit from a stop of the call', async () => {
    const url = 'https://page.example/';
    const timedOut = await webFetch.execute(hangingState({ WEB_FETCH_TIMEOUT_MS: '20' }), { url, format: 'markdown' });
    expect(timedOut).toEqual({ status: 'error', error: `web_fetch: ${url} did not answer within 20 ms` });

    const stop = new AbortController();
    const pending = webFetch.execute(hangingState({}, stop.signal), { url, format: 'markdown' });
    // The stop's reason may itself say "timed out" (the tool runner's own limit): it is still a stop.
    stop.abort(new Error('Tool "web_fetch" timed out'));
    expect(await pending).toEqual({ status: 'error', error: 'web_fetch: the call was stopped' });
  });

  it('LOCK-3, EXE-5: web_search tells its own time limit from a stop of the call', async () => {
    const tenvs = { SEARXNG_URL: 'https://searx.example' };
    const timedOut = await webSearch.execute(hangingState({ ...tenvs, WEB_SEARCH_TIMEOUT_MS: '20' }), {
      query: 'q',
      max_results: 5,
    });
    expect(timedOut).toEqual({ status: 'error', error: 'web_search: searxng did not answer within 20 ms' });

    const stop = new AbortController();
    const pending = webSearch.execute(hangingState(tenvs, stop.signal), { query: 'q', max_results: 5 });
    stop.abort(new Error('stopped'));
    expect(await pending).toEqual({ status: 'error', error: 'web_search: the call was stopped' });
  });
});

describe('web tool declarations', () => {
  it('LOCK-5, LOCK-6, LOCK-7: kinds, network requirements, output cap and variables are declared', () => {
    expect(webSearch.acpKind).toBe('search');
    expect(webFetch.acpKind).toBe('fetch');
    expect(webSearch.requires.net?.hosts).toEqual(['api.search.brave.com', 'api.tavily.com']);
    expect(webFetch.requires.net?.hosts).toEqual(['*']);
    expect(webFetch.maxOutputBytes).toBe(200 * 1024);
    const variables = Object.fromEntries(webSearch.variables.map((v) => [v.name, v]));
    expect(variables.BRAVE_SEARCH_API_KEY).toMatchObject({ type: 'secret', required: false });
    expect(variables.TAVILY_API_KEY).toMatchObject({ type: 'secret', required: false });
    expect(variables.SEARXNG_URL).toMatchObject({ type: 'text', required: false });
    expect(variables.WEB_SEARCH_MAX_CALLS).toMatchObject({ required: false, default: '25' });
    expect(variables.WEB_SEARCH_TIMEOUT_MS).toMatchObject({ required: false, default: '15000' });
    expect(webSearch.variables.every((v) => !v.required)).toBe(true);
    expect(webFetch.variables.every((v) => !v.required)).toBe(true);
    expect(SEARCH_ADAPTERS.map((adapter) => adapter.name)).toEqual(['brave', 'tavily', 'searxng']);
  });

  it('DEF-7: both tools pass the tool-design lint', () => {
    expect(lintTools({ web_search: webSearch, web_fetch: webFetch })).toEqual([]);
  });
});
