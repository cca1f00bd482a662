/**
 * The Worker's HTTP surface (THR-5; the routes are listed in the README): a Hono app with bearer
 * auth on every /api route and on the MCP endpoint, JSON errors, and the OpenAPI document.
 */
import { Hono } from 'hono';
import type { Registry } from '../engine/registry/index.js';
import { bearerAuth, errorResponse, type HttpEnv, HttpError, openApiDocument } from './contract/index.js';
import { mcpRoutes } from './mcp/index.js';
import {
  agentRoutes,
  deferredChildRoutes,
  fileRoutes,
  interactionRoutes,
  mcpOAuthRoutes,
  streamRoutes,
  threadRoutes,
} from './routes/index.js';

export function createApp(registry: Registry) {
  const app = new Hono<HttpEnv>();

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error.apiError);
    console.error(error);
    return errorResponse(c, { status: 500, code: 'internal_error', message: 'the request failed inside the runtime' });
  });
  app.notFound((c) =>
    errorResponse(c, { status: 404, code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` }),
  );

  app.get('/', (c) =>
    c.json({
      name: 'standard-agents-cloudflare',
      agents: [...registry.agents.keys()],
      openapi: '/openapi.json',
      mcp: '/mcp',
    }),
  );
  app.get('/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));

  // A browser returning from an MCP server's authorization: authorized by its state, not a key.
  app.route('/oauth', mcpOAuthRoutes());
  app.use('/api/*', bearerAuth());
  app.route('/api/agents', agentRoutes(registry));
  app.route('/api/threads', streamRoutes());
  app.route('/api/threads', fileRoutes());
  app.route('/api/threads', interactionRoutes());
  app.route('/api/threads', deferredChildRoutes());
  app.route('/api/threads', threadRoutes(registry));
  // The same keys, the same users: an MCP client sees exactly the threads its key owns (THR-6).
  app.use('/mcp', bearerAuth());
  app.route('/mcp', mcpRoutes(registry));
  return app;
}
