/**
 * `/mcp`: the Streamable HTTP endpoint of the MCP specification (2025-06-18), stateless (THR-5).
 * Every POST gets a fresh transport and server, so any Worker instance answers any request and no
 * session is kept. A response is an event stream: progress notifications, then the result. There is
 * no stream of server-initiated messages to open with GET, which the specification answers with 405.
 * The bearer key is checked before this route runs (THR-6, app.ts). The POST is declared in the
 * OpenAPI document and served by a plain handler: the SDK's transport reads and checks the body.
 */
import type { Context } from 'hono';
import type { Registry } from '../../engine/registry/index.js';
import {
  type HttpEnv,
  MAX_JSON_BODY_BYTES,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  routeApp,
  serveDocumented,
} from '../contract/index.js';
import { mcpDeleteNotAllowed, mcpGetNotAllowed, mcpPost } from './mcp-contract.js';
import { buildMcpServer } from './mcp-server.js';

/**
 * How long an agent tool follows a turn before answering that it still runs. A Worker request has
 * no wall-clock limit while its client stays connected (waiting costs no CPU time, and the
 * transport writes a keep-alive comment every 15 s), but clients time out, redeploys end requests,
 * and a client's timeout cancels the call, which stops the turn. Past this the call answers
 * `status: running` with the thread id instead of holding the request open indefinitely.
 */
export const TURN_WAIT_MS = 10 * 60_000;

export interface McpOptions {
  turnWaitMs?: number;
}

const NOT_ALLOWED = {
  code: 'method_not_allowed',
  message: 'this MCP endpoint is stateless: POST JSON-RPC messages; there is no session to stream or delete',
};

/**
 * The request with its body read, or the JSON-RPC error refusing a body nested deeper than any body
 * may be (json-depth.ts): the SDK's parse is followed by its schema and by the tool arguments it
 * hands on, which are walked recursively. A body over the size limit is left to the transport,
 * which answers 413 itself.
 */
async function depthChecked(c: Context<HttpEnv>): Promise<Request | Response> {
  const request = c.req.raw;
  if (Number(request.headers.get('content-length') ?? '0') > MAX_JSON_BODY_BYTES) return request;
  const text = await request.text();
  if (!nestsDeeperThan(text))
    return new Request(request.url, { method: request.method, headers: request.headers, body: text });
  const message = `Parse error: JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message } }, { status: 400 });
}

export function mcpRoutes(registry: Registry, options: McpOptions = {}) {
  const app = routeApp();

  serveDocumented(app, mcpPost, async (c) => {
    const request = await depthChecked(c);
    if (request instanceof Response) return request;
    // The SDK's server loads with the first `/mcp` request, not with the Worker (mcp-server-sdk.ts).
    const sdk = await import('./mcp-server-sdk.js');
    const server = buildMcpServer(sdk, {
      env: c.env,
      principal: c.get('principal'),
      registry,
      turnWaitMs: options.turnWaitMs ?? TURN_WAIT_MS,
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    });
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: MAX_JSON_BODY_BYTES,
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  });

  app.openapi(mcpGetNotAllowed, (c) => c.json({ error: NOT_ALLOWED }, 405, { Allow: 'POST' }));
  app.openapi(mcpDeleteNotAllowed, (c) => c.json({ error: NOT_ALLOWED }, 405, { Allow: 'POST' }));

  return app;
}
