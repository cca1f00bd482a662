/**
 * `/mcp`: the Streamable HTTP endpoint of the MCP specification (2025-06-18), stateless (THR-5).
 * Every POST gets a fresh transport and server, so any Worker instance answers any request and no
 * session is kept. A response is an event stream: progress notifications, then the result. There is
 * no stream of server-initiated messages to open with GET, which the specification answers with 405.
 * The bearer key is checked before this route runs (THR-6, app.ts). The POST is declared in the
 * OpenAPI document and served by a plain handler: the SDK's transport reads and checks the body.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Registry } from '../../engine/registry/index.js';
import { MAX_JSON_BODY_BYTES, routeApp, serveDocumented } from '../contract/index.js';
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

export function mcpRoutes(registry: Registry, options: McpOptions = {}) {
  const app = routeApp();

  serveDocumented(app, mcpPost, async (c) => {
    const server = buildMcpServer({
      env: c.env,
      userId: c.get('userId'),
      registry,
      turnWaitMs: options.turnWaitMs ?? TURN_WAIT_MS,
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      maxRequestBodySize: MAX_JSON_BODY_BYTES,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });

  app.openapi(mcpGetNotAllowed, (c) => c.json({ error: NOT_ALLOWED }, 405, { Allow: 'POST' }));
  app.openapi(mcpDeleteNotAllowed, (c) => c.json({ error: NOT_ALLOWED }, 405, { Allow: 'POST' }));

  return app;
}
