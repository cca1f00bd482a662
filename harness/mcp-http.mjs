/**
 * The HTTP plumbing the local MCP servers of mcp-servers.mjs share, on plain `node:http`: the SDK's
 * Node transports do the protocol, this routes requests to them by session, as the MCP transport
 * spec asks of a stateful server (a session per `initialize`, 404 for an id it no longer knows),
 * and records every request so tests can assert what the runtime's client actually sent.
 *
 * Types are in mcp-http.d.mts.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {import('node:http').Server} Server
 * @typedef {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} McpServer
 * @typedef {import('@modelcontextprotocol/sdk/server/auth/types.js').AuthInfo} AuthInfo
 *
 * @typedef {object} RecordedMcpRequest
 * @property {string} method
 * @property {string} path Without the query string.
 * @property {Record<string, string>} query
 * @property {Record<string, string | string[] | undefined>} headers All of them, lower-case names.
 * @property {string[]} mcpMethods The JSON-RPC `method` of each request or notification in the body.
 * @property {string | undefined} tool The tool name of a `tools/call` in the body.
 * @property {string | undefined} sessionId The `mcp-session-id` header, or the SSE transport's
 *   `sessionId` query parameter.
 * @property {number | undefined} status Once the response's head is sent.
 */

/** @param {IncomingMessage} req */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** @param {string} text */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A JSON-RPC error with no id, as the SDK's own transports send for transport-level failures.
 * @param {number} code
 * @param {string} message
 */
export function jsonRpcError(code, message) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * Records a request; `status` reads the response once its head is sent, so long-lived streams are
 * recorded too.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {URL} url
 * @param {unknown} body The parsed JSON body, if any.
 * @returns {RecordedMcpRequest}
 */
export function recordRequest(req, res, url, body) {
  const messages = Array.isArray(body) ? body : body === undefined ? [] : [body];
  /** @type {string[]} */
  const mcpMethods = [];
  /** @type {string | undefined} */
  let tool;
  for (const message of messages) {
    if (!message || typeof message !== 'object' || typeof message.method !== 'string') continue;
    mcpMethods.push(message.method);
    if (message.method === 'tools/call' && typeof message.params?.name === 'string') tool ??= message.params.name;
  }
  const query = Object.fromEntries(url.searchParams);
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query,
    headers: { ...req.headers },
    mcpMethods,
    tool,
    sessionId: headerValue(req, 'mcp-session-id') ?? query.sessionId,
    get status() {
      return res.headersSent ? res.statusCode : undefined;
    },
  };
}

/**
 * @param {IncomingMessage} req
 * @param {string} name Lower-case.
 */
export function headerValue(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Stateful Streamable HTTP sessions: each `initialize` POST gets a transport and its own
 * `McpServer` (a server serves one transport), later requests are routed by `mcp-session-id`.
 * @param {{ newMcpServer: () => McpServer, jsonResponse?: boolean }} options
 */
export function createStreamableSessions(options) {
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {unknown} body
   * @param {AuthInfo} [auth] Reaches tool handlers as `extra.authInfo`.
   */
  async function handle(req, res, body, auth) {
    if (req.method === 'POST' && body === undefined) return sendJson(res, 400, jsonRpcError(-32700, 'Parse error'));
    const request = auth ? Object.assign(req, { auth }) : req;
    const sessionId = headerValue(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      // Streamable HTTP, Session Management: an id the server does not know (expired, dropped or
      // made up) gets 404, which tells the client to start a new session with `initialize`.
      if (!transport) return sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
      return transport.handleRequest(request, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: options.jsonResponse ?? false,
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId && sessions.get(transport.sessionId) === transport)
          sessions.delete(transport.sessionId);
      };
      await options.newMcpServer().connect(transport);
      return transport.handleRequest(request, res, body);
    }
    sendJson(res, 400, jsonRpcError(-32000, 'Bad Request: no mcp-session-id header and not an initialize request'));
  }

  /** Forgets every session at once and closes their transports (open streams end). */
  function drop() {
    const transports = [...sessions.values()];
    sessions.clear();
    return Promise.all(transports.map((transport) => transport.close())).then(() => undefined);
  }

  return { handle, count: () => sessions.size, drop };
}

/**
 * The older HTTP+SSE transport (protocol 2024-11-05): `GET` opens the event stream, whose first
 * `endpoint` event names where to POST messages, with the session in the query string.
 * @param {{ newMcpServer: () => McpServer, postPath: string }} options
 */
export function createSseSessions(options) {
  /** @type {Map<string, SSEServerTransport>} */
  const sessions = new Map();

  /** @param {ServerResponse} res */
  async function open(res) {
    const transport = new SSEServerTransport(options.postPath, res);
    sessions.set(transport.sessionId, transport);
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
    };
    // connect() starts the transport, which writes the stream's head and the endpoint event.
    await options.newMcpServer().connect(transport);
  }

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {unknown} body
   * @param {string | undefined} sessionId
   */
  async function post(req, res, body, sessionId) {
    const transport = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!transport) return sendJson(res, 404, jsonRpcError(-32001, 'Session not found'));
    // The body was read already; the transport would wait for it again.
    if (body === undefined) return sendJson(res, 400, jsonRpcError(-32700, 'Parse error'));
    await transport.handlePostMessage(req, res, body);
  }

  function drop() {
    const transports = [...sessions.values()];
    sessions.clear();
    return Promise.all(transports.map((transport) => transport.close())).then(() => undefined);
  }

  return { open, post, count: () => sessions.size, drop };
}

/**
 * Serves `handle` on 127.0.0.1 (loopback only: no DNS-rebinding exposure) and answers 500 to an
 * exception it throws.
 * @param {(req: IncomingMessage, res: ServerResponse) => Promise<void>} handle
 * @param {number} [port] 0 (the default) picks a free port.
 * @returns {Promise<{ server: Server, origin: string, port: number }>}
 */
export async function listen(handle, port = 0) {
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, jsonRpcError(-32603, `mcp harness: ${error instanceof Error ? error.message : error}`));
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { server, origin: `http://127.0.0.1:${bound}`, port: bound };
}

/**
 * Stops listening and cuts open connections (event streams never end on their own).
 * @param {Server} server
 * @returns {Promise<void>}
 */
export function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * The request's URL against the server's origin.
 * @param {IncomingMessage} req
 * @param {string} origin
 */
export function requestUrl(req, origin) {
  return new URL(req.url ?? '/', origin);
}
