/**
 * The Worker's HTTP surface (THR-5; the routes are listed in the README): a Hono app with bearer
 * auth on every /api route, JSON errors, and the OpenAPI document.
 */
import { Hono } from 'hono';
import type { Registry } from '../engine/registry/registry.js';
import type { RuntimeEnv } from '../thread/bindings/env.js';
import { type AuthVariables, bearerAuth } from './auth.js';
import { errorResponse, HttpError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { agentRoutes } from './routes/agents.js';
import { deferredChildRoutes } from './routes/deferred-children.js';
import { fileRoutes } from './routes/files.js';
import { interactionRoutes } from './routes/interactions.js';
import { streamRoutes } from './routes/stream.js';
import { threadRoutes } from './routes/threads.js';

export function createApp(registry: Registry) {
  const app = new Hono<{ Bindings: RuntimeEnv; Variables: AuthVariables }>();

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error.apiError);
    console.error(error);
    return errorResponse(c, { status: 500, code: 'internal_error', message: 'the request failed inside the runtime' });
  });
  app.notFound((c) =>
    errorResponse(c, { status: 404, code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` }),
  );

  app.get('/', (c) =>
    c.json({ name: 'standard-agents-cloudflare', agents: [...registry.agents.keys()], openapi: '/openapi.json' }),
  );
  app.get('/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)));

  app.use('/api/*', bearerAuth());
  app.route('/api/agents', agentRoutes(registry));
  app.route('/api/threads', streamRoutes());
  app.route('/api/threads', fileRoutes());
  app.route('/api/threads', interactionRoutes());
  app.route('/api/threads', deferredChildRoutes());
  app.route('/api/threads', threadRoutes(registry));
  return app;
}
