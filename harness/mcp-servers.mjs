/**
 * Local MCP servers for the tests, `npm run dev` and the benchmarks, built on the official SDK's
 * server side so the runtime's MCP client is tested against the protocol as real servers speak it:
 *
 * - `startMcpServer`: the test tool set (mcp-tools.mjs) over stateful Streamable HTTP at `/mcp` and
 *   the older HTTP+SSE transport at `/sse` + `/messages`, recording every request;
 * - `startOAuthMcpServer`: `echo` and `whoami` behind OAuth 2.1 as the MCP authorization spec has it,
 *   with the authorization server on the same origin (mcp-oauth.mjs);
 * - `startDemoMcpServer`: unit conversion and a world clock for the example application, offline.
 *
 * `node harness/mcp-servers.mjs demo [port]` starts the demo server and prints its URL.
 * Plain ESM JavaScript like the other harness modules; types are in mcp-servers.d.mts.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  closeServer,
  createSseSessions,
  createStreamableSessions,
  jsonRpcError,
  listen,
  parseJson,
  readBody,
  recordRequest,
  requestUrl,
  sendJson,
} from './mcp-http.mjs';
import { createOAuthAuthority } from './mcp-oauth.mjs';
import { registerDemoTools, registerTestTools } from './mcp-tools.mjs';

export { CATALOG_TOOLS, convertUnits, EXPLODE_MESSAGE, PIXEL_PNG_BASE64, worldClock } from './mcp-tools.mjs';

/**
 * @typedef {import('./mcp-http.mjs').RecordedMcpRequest} RecordedMcpRequest
 * @typedef {import('./mcp-tools.mjs').RecordedToolCall} RecordedToolCall
 *
 * @typedef {object} McpServerOptions
 * @property {'all' | 'basic'} [tools] `basic` leaves out the 200 catalog tools; default `all`.
 * @property {number} [delayMs] Waited (cancellably) before every tool call.
 * @property {boolean} [jsonResponse] Streamable HTTP answers POSTs with `application/json` instead of
 *   an event stream; both are allowed by the spec, a client must handle either.
 *
 * @typedef {object} OAuthMcpServerOptions
 * @property {number} [accessTokenTtlSeconds] Default 3600.
 */

const SERVER_INFO = { name: 'standard-agents-test-mcp', version: '1.0.0' };

/**
 * The test server: every tool kind the runtime's MCP client must handle, on both transports.
 * @param {McpServerOptions} [options]
 */
export async function startMcpServer(options = {}) {
  /** @type {RecordedMcpRequest[]} */
  const requests = [];
  /** @type {RecordedToolCall[]} */
  const calls = [];
  const newMcpServer = () => {
    const server = new McpServer(SERVER_INFO);
    registerTestTools(server, { calls, tools: options.tools ?? 'all', delayMs: options.delayMs });
    return server;
  };
  const streamable = createStreamableSessions({ newMcpServer, jsonResponse: options.jsonResponse });
  const sse = createSseSessions({ newMcpServer, postPath: '/messages' });

  const { server, origin } = await listen(async (req, res) => {
    const url = requestUrl(req, origin);
    const body = parseJson(await readBody(req));
    const record = recordRequest(req, res, url, body);
    requests.push(record);
    if (url.pathname === '/mcp') return streamable.handle(req, res, body);
    if (url.pathname === '/sse' && req.method === 'GET') return sse.open(res);
    if (url.pathname === '/messages' && req.method === 'POST') return sse.post(req, res, body, record.sessionId);
    sendJson(res, 404, jsonRpcError(-32601, `No MCP endpoint at ${req.method} ${url.pathname}`));
  });

  return {
    url: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    origin,
    requests,
    calls,
    /** Tool calls stopped by their request's signal. */
    cancelled: () => calls.filter((call) => call.status === 'cancelled').length,
    /** Live Streamable HTTP sessions. */
    sessions: () => streamable.count(),
    /** Forgets every Streamable HTTP session: an old `mcp-session-id` now gets 404. */
    dropSessions() {
      void streamable.drop();
    },
    async close() {
      await Promise.all([streamable.drop(), sse.drop()]);
      await closeServer(server);
    },
  };
}

/**
 * `echo` and `whoami` at `/mcp`, reachable only with an access token from the authorization server
 * on the same origin.
 * @param {OAuthMcpServerOptions} [options]
 */
export async function startOAuthMcpServer(options = {}) {
  /** @type {RecordedMcpRequest[]} */
  const requests = [];
  /** @type {RecordedToolCall[]} */
  const calls = [];
  const streamable = createStreamableSessions({
    newMcpServer: () => {
      const server = new McpServer(SERVER_INFO);
      registerTestTools(server, { calls, only: ['echo', 'whoami'] });
      return server;
    },
  });
  /** @type {ReturnType<typeof createOAuthAuthority> | undefined} */
  let authority;

  const { server, origin } = await listen(async (req, res) => {
    const url = requestUrl(req, origin);
    const rawBody = await readBody(req);
    const body = parseJson(rawBody);
    requests.push(recordRequest(req, res, url, body));
    const auth = /** @type {ReturnType<typeof createOAuthAuthority>} */ (authority);
    if (auth.route(req, res, url, rawBody)) return;
    if (url.pathname === '/mcp') {
      const result = auth.authenticate(req);
      if (!result.ok) return auth.challenge(res, result);
      return streamable.handle(req, res, body, result.authInfo);
    }
    sendJson(res, 404, { error: 'not_found', error_description: `Nothing at ${req.method} ${url.pathname}` });
  });
  authority = createOAuthAuthority({ origin, accessTokenTtlSeconds: options.accessTokenTtlSeconds });

  return {
    url: `${origin}/mcp`,
    origin,
    resourceMetadataUrl: authority.resourceMetadataUrl,
    requests,
    calls,
    registrations: authority.registrations,
    tokensIssued: authority.tokensIssued,
    authorizeRequests: authority.authorizeRequests,
    tokenRequests: authority.tokenRequests,
    secrets: authority.secrets,
    expireTokens: authority.expireTokens,
    revokeTokens: authority.revokeTokens,
    sessions: () => streamable.count(),
    dropSessions() {
      void streamable.drop();
    },
    async close() {
      await streamable.drop();
      await closeServer(server);
    },
  };
}

/**
 * The demo server for the example application: `convert_units` and `world_clock` over Streamable
 * HTTP at `/mcp`.
 * @param {number} [port] Default 0, a free port.
 */
export async function startDemoMcpServer(port = 0) {
  const streamable = createStreamableSessions({
    newMcpServer: () => {
      const server = new McpServer({ name: 'units-and-clocks', version: '1.0.0' });
      registerDemoTools(server);
      return server;
    },
  });
  const { server, origin } = await listen(async (req, res) => {
    const url = requestUrl(req, origin);
    const body = parseJson(await readBody(req));
    if (url.pathname === '/mcp') return streamable.handle(req, res, body);
    sendJson(res, 404, jsonRpcError(-32601, `No MCP endpoint at ${req.method} ${url.pathname}; use /mcp`));
  }, port);

  return {
    url: `${origin}/mcp`,
    origin,
    async close() {
      await streamable.drop();
      await closeServer(server);
    },
  };
}

/** `node harness/mcp-servers.mjs demo [port]`: serves until interrupted. */
async function main() {
  const [command, portText] = process.argv.slice(2);
  if (command !== 'demo') {
    process.stderr.write('usage: node harness/mcp-servers.mjs demo [port]\n');
    process.exitCode = 2;
    return;
  }
  const port = portText === undefined ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`not a port: ${portText}\n`);
    process.exitCode = 2;
    return;
  }
  const demo = await startDemoMcpServer(port);
  process.stdout.write(`${demo.url}\n`);
  const stop = () => {
    demo.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function isEntryPoint() {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
    process.exitCode = 1;
  });
}
