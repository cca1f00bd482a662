/**
 * Local services for the workerd tests, started once in Node: an OpenAI-compatible model server
 * (harness/openai-server.mjs) and a Gemini API server (harness/google-server.mjs) that play the
 * directive script in each thread's own user message, an Anthropic Messages API server
 * (test/support/anthropic-server.ts) that answers every request with one text, a small HTTP
 * service for tools that call outside APIs and for inspecting what the model servers received,
 * and an "intranet" server that the egress policy must keep the tools away from.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ScriptedRequest } from '@standardagents/spec';
import type { TestProject } from 'vitest/node';
import { startGoogleServer } from '../../harness/google-server.mjs';
import { startMcpServer, startOAuthMcpServer } from '../../harness/mcp-servers.mjs';
import { type RecordedBody, type Reply, type StreamReply, startOpenAIServer } from '../../harness/openai-server.mjs';
import { handleWebhookRequest } from '../../harness/webhook-receiver.mjs';
import { startAnthropicServer } from '../support/anthropic-server.js';
import { directiveScript } from '../support/directive-script.js';
import { geminiDirectiveReply } from '../support/gemini-directive.js';
import { png } from '../support/message-files.js';

declare module 'vitest' {
  export interface ProvidedContext {
    modelBaseUrl: string;
    /** The local Gemini API server (harness/google-server.mjs), for models of provider 'google'. */
    googleBaseUrl: string;
    /** The local Messages API server (test/support/anthropic-server.ts), for models of provider 'anthropic'. */
    anthropicBaseUrl: string;
    servicesUrl: string;
    intranetUrl: string;
    /** A local port nothing listens on (a server was started there and closed): connections are refused. */
    closedUrl: string;
    /** The MCP test server (harness/mcp-servers.mjs): Streamable HTTP, and HTTP+SSE. */
    mcpUrl: string;
    mcpSseUrl: string;
    /** The same tools behind OAuth 2.1. */
    mcpOAuthUrl: string;
  }
}

async function directiveReply(body: RecordedBody): Promise<Reply> {
  const reply = await directiveScript({
    messages: (body.messages ?? []) as unknown as ScriptedRequest['messages'],
    toolNames: (body.tools ?? []).map((tool) => tool.function.name),
  });
  // A script may also pace the stream or break it (harness/openai-server.mjs): these pass through.
  const { chunkSize, chunkDelayMs, streamError } = reply as Pick<
    StreamReply,
    'chunkSize' | 'chunkDelayMs' | 'streamError'
  >;
  return {
    chunkSize,
    chunkDelayMs,
    streamError,
    text: reply.text,
    toolCalls: reply.toolCalls?.map((call) => ({
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

/** A request one of the fake web services (below) received, for tests to inspect. */
interface WebRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The client went away before an answer (the hanging endpoint). */
  closed: boolean;
}

const webRequests: WebRequest[] = [];

/**
 * Requests to /web/hold/<key> are answered only once /web/release/<key> is asked (or at once after
 * it): a tool fetching one runs until its test lets it finish.
 */
const holds = new Map<string, { released: boolean; waiting: Array<() => void> }>();

function holdFor(key: string) {
  let hold = holds.get(key);
  if (!hold) {
    hold = { released: false, waiting: [] };
    holds.set(key, hold);
  }
  return hold;
}

const SAMPLE_PAGE = `<!doctype html>
<html><head><title>Sample page</title><style>body { color: red }</style>
<script>window.secret = "script-text";</script></head>
<body>
<nav><a href="/">Home</a></nav>
<h1>Sample <em>heading</em></h1>
<p>Intro with a <a href="/web/other.html">relative link</a> and <strong>bold</strong> text.</p>
<h2>List</h2>
<ul><li>first item</li><li>second item<ol><li>nested one</li></ol></li></ul>
<pre><code class="language-js">const x = 1;
console.log(x);</code></pre>
<p>Inline <code>code()</code> here.</p>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
<script>document.write("more-script-text")</script>
</body></html>`;

/** Fake search results; a query containing `fail:NNN` makes the API answer with that status. */
function fakeResults(prefix: string, query: string, count: number, snippetKey: string, html: boolean) {
  return Array.from({ length: count }, (_, index) => ({
    title: html ? `${prefix} <strong>result</strong> ${index + 1}` : `${prefix} result ${index + 1}`,
    url: `https://${prefix.toLowerCase()}.example/${encodeURIComponent(query)}/${index + 1}`,
    [snippetKey]: html ? `About <strong>${query}</strong> &amp; more (${index + 1})` : `About ${query} (${index + 1})`,
  }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
  });
}

/**
 * Fake outside web services under /web/ for the web_search and web_fetch tests: search APIs speaking
 * Brave's, Tavily's and SearXNG's JSON, HTML and other pages, redirects, and an endpoint that never
 * answers until its client goes away.
 */
async function webService(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const body = await readBody(req);
  const record: WebRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    closed: false,
  };
  if (url.pathname !== '/web/requests') webRequests.push(record);
  const send = (status: number, payload: string | Uint8Array, type?: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { ...(type ? { 'content-type': type } : {}), ...headers });
    res.end(payload);
  };
  const json = (status: number, payload: unknown) => send(status, JSON.stringify(payload), 'application/json');
  const failure = /fail:(\d{3})/.exec(url.searchParams.get('q') ?? body);
  const path = url.pathname;

  if (path === '/web/requests') {
    const marker = url.searchParams.get('containing') ?? '';
    return json(
      200,
      webRequests.filter((request) => JSON.stringify(request).includes(marker)),
    );
  }
  const held = /^\/web\/(hold|release)\/([\w-]{1,100})$/.exec(path);
  if (held) {
    const hold = holdFor(held[2] as string);
    if (held[1] === 'release') {
      hold.released = true;
      for (const answer of hold.waiting.splice(0)) answer();
      return json(200, { released: held[2] });
    }
    const answer = () => send(200, `released ${held[2]}`, 'text/plain');
    if (hold.released) return answer();
    hold.waiting.push(answer);
    return;
  }
  if (path.startsWith('/web/hang/')) {
    // Never answers: the request ends only when the client gives up.
    res.on('close', () => {
      record.closed = true;
    });
    return;
  }
  if (path === '/web/brave/res/v1/web/search') {
    const token = String(req.headers['x-subscription-token'] ?? '');
    if (!token.startsWith('brave-')) return json(401, { error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: token } });
    if (failure) return json(Number(failure[1]), { error: { detail: `failed for token ${token}` } });
    const query = url.searchParams.get('q') ?? '';
    const count = Number(url.searchParams.get('count') ?? '20');
    return json(200, {
      type: 'search',
      query: { original: query },
      web: { type: 'search', results: fakeResults('Brave', query, count, 'description', true) },
    });
  }
  if (path === '/web/tavily/search' && req.method === 'POST') {
    const token = String(req.headers.authorization ?? '');
    if (!token.startsWith('Bearer tvly-')) return json(401, { detail: { error: `Unauthorized: ${token}` } });
    if (failure) return json(Number(failure[1]), { detail: { error: `failed for ${token}` } });
    const request = JSON.parse(body) as { query: string; max_results?: number };
    return json(200, {
      query: request.query,
      answer: null,
      images: [],
      results: fakeResults('Tavily', request.query, request.max_results ?? 5, 'content', false).map((result) => ({
        ...result,
        score: 0.9,
        raw_content: null,
      })),
      response_time: 0.42,
    });
  }
  if (path === '/web/searxng/search') {
    if (url.searchParams.get('format') !== 'json') return send(403, 'Forbidden', 'text/html');
    if (failure) return json(Number(failure[1]), { error: 'failed' });
    const query = url.searchParams.get('q') ?? '';
    return json(200, {
      query,
      number_of_results: 0,
      results: fakeResults('SearXNG', query, 12, 'content', false).map((result) => ({ ...result, engine: 'fake' })),
      answers: [],
      suggestions: [],
    });
  }
  if (path === '/web/page.html') return send(200, SAMPLE_PAGE, 'text/html; charset=utf-8');
  if (path === '/web/large.html') {
    // 6 MB, nearly all of it one script: past the 5 MB download cap, with little text to keep.
    return send(
      200,
      `<html><body><p>start-marker</p><script>${'x'.repeat(6 * 1024 * 1024)}</script><p>end-marker</p></body></html>`,
      'text/html',
    );
  }
  if (path === '/web/long-text.html') {
    const paragraphs = Array.from({ length: 3000 }, (_, index) => `<p>paragraph ${index} ${'lorem '.repeat(15)}</p>`);
    return send(200, `<html><body>${paragraphs.join('')}</body></html>`, 'text/html');
  }
  const redirect = /^\/web\/redirect\/(\d+)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    return send(302, '', undefined, { location: left > 1 ? `/web/redirect/${left - 1}` : '/web/page.html' });
  }
  if (path === '/web/redirect-ftp') return send(302, '', undefined, { location: 'ftp://files.example/secret.txt' });
  // GET /web/redirect-to?location=<url>: a redirect to anywhere, for the egress tests.
  if (path === '/web/redirect-to')
    return send(302, '', undefined, { location: url.searchParams.get('location') ?? '/' });
  // GET /web/echo?text=<text>: the text as a plain page, for the untrusted-output tests.
  if (path === '/web/echo') return send(200, url.searchParams.get('text') ?? '', 'text/plain; charset=utf-8');
  if (path === '/web/plain.txt') return send(200, 'plain text body\n  kept   as is', 'text/plain');
  if (path === '/web/data.json') return send(200, '{"answer":42}', 'application/json');
  if (path === '/web/image.png') {
    return send(200, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'image/png');
  }
  // A real 4×3 PNG, for an image a user's message names by URL.
  if (path === '/web/picture.png') return send(200, png(4, 3), 'image/png');
  if (path === '/web/untyped') return send(200, new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0, 0]));
  return json(404, { error: 'no such page' });
}

/**
 * A second local server standing for a host inside the network: no test allows it, so nothing may
 * ever reach it through the tools. What it receives goes to the same request log.
 */
function intranetService(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  webRequests.push({
    method: req.method ?? 'GET',
    path: `/intranet${url.pathname}`,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body: '',
    closed: false,
  });
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('intranet secret');
}

export default async function setup(project: TestProject) {
  const model = await startOpenAIServer({ respond: directiveReply });
  const gemini = await startGoogleServer({ respond: geminiDirectiveReply, apiKey: 'test-google-key' });
  // Answers every request with one short text: tests read what it received.
  const claude = await startAnthropicServer(() => ({ text: 'Seen.' }));
  const mcp = await startMcpServer();
  const oauth = await startOAuthMcpServer();
  const services = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname.startsWith('/web/')) return void webService(req, res, url);
    // Webhook endpoints (harness/webhook-receiver.mjs): /hooks/<name>?plan=..., /hooks-received/<name>.
    if (handleWebhookRequest(req, res, url)) return;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // What the MCP servers saw, and the levers a test pulls on them (a restart, expired tokens).
    if (url.pathname === '/mcp-admin/state') {
      const { requests, calls } = mcp;
      return send(200, { requests, calls, cancelled: mcp.cancelled(), sessions: mcp.sessions() });
    }
    if (url.pathname === '/mcp-admin/drop-sessions') {
      mcp.dropSessions();
      return send(200, { dropped: true });
    }
    if (url.pathname === '/mcp-admin/oauth') {
      const { requests, calls, registrations, tokenRequests, authorizeRequests } = oauth;
      return send(200, { requests, calls, registrations, tokenRequests, authorizeRequests, secrets: oauth.secrets() });
    }
    if (url.pathname === '/mcp-admin/oauth/expire') {
      oauth.expireTokens();
      return send(200, { expired: true });
    }
    // GET /model-requests?containing=<marker>: bodies the model server received that mention the marker.
    if (url.pathname === '/model-requests') {
      const marker = url.searchParams.get('containing') ?? '';
      return send(
        200,
        model.requests.map((request) => request.body).filter((body) => JSON.stringify(body).includes(marker)),
      );
    }
    // GET /anthropic-requests?containing=<marker>: the bodies the Messages API server received that mention the marker.
    if (url.pathname === '/anthropic-requests') {
      const marker = url.searchParams.get('containing') ?? '';
      return send(
        200,
        claude.requests.map((request) => request.body).filter((body) => JSON.stringify(body).includes(marker)),
      );
    }
    // GET /google-requests?containing=<marker>: what the Gemini server received, when it mentions the marker.
    if (url.pathname === '/google-requests') {
      const marker = url.searchParams.get('containing') ?? '';
      const received = gemini.requests.map(({ path, query, body }) => ({ path, query, body }));
      return send(
        200,
        received.filter((request) => JSON.stringify(request.body).includes(marker)),
      );
    }
    // /status/<code>, and any path under it: an outside API (or a model server) failing with that status.
    const status = /^\/status\/(\d{3})(\/.*)?$/.exec(url.pathname);
    if (status) return send(Number(status[1]), { error: `status ${status[1]}` });
    // Anything else: an outside API answering JSON about the request.
    return send(200, { ok: true, path: url.pathname, query: Object.fromEntries(url.searchParams) });
  });
  project.provide('modelBaseUrl', model.baseURL);
  project.provide('googleBaseUrl', gemini.url);
  project.provide('anthropicBaseUrl', claude.url);
  project.provide('servicesUrl', await listen(services));
  const intranet = createServer(intranetService);
  project.provide('intranetUrl', await listen(intranet));
  const closed = createServer();
  project.provide('closedUrl', await listen(closed));
  await new Promise((resolve) => closed.close(resolve));
  project.provide('mcpUrl', mcp.url);
  project.provide('mcpSseUrl', mcp.sseUrl);
  project.provide('mcpOAuthUrl', oauth.url);
  return async () => {
    await mcp.close();
    await oauth.close();
    await model.close();
    await gemini.close();
    await claude.close();
    // Requests to /web/hang/ may still be open.
    services.closeAllConnections();
    await new Promise((resolve) => services.close(resolve));
    await new Promise((resolve) => intranet.close(resolve));
  };
}
