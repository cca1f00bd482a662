/**
 * The Worker's HTTP surface (THR-5; the routes are listed in docs/api.md): an OpenAPIHono app with
 * bearer auth on every /api route and on the MCP endpoint, JSON errors, and the OpenAPI document
 * generated from the routes as they are declared — a route cannot be served undocumented.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { Registry } from '../engine/registry/index.js';
import { apiKeyRoutes, auditRoutes, limitRoutes, usageRoutes } from './admin/index.js';
import {
  declareBearerAuth,
  errorResponse,
  type HttpEnv,
  HttpError,
  INSPECTOR_POLICY,
  openApiDocument,
  securityHeaders,
  validationHook,
  withSecurityHeaders,
} from './contract/index.js';
import { mountThreadEndpoints } from './endpoints/index.js';
import { historyRoutes } from './history/index.js';
import { resolvePrincipal, signIn } from './identity/index.js';
import { type McpOptions, mcpRoutes } from './mcp/index.js';
import { messageRoutes } from './messages/index.js';
import { oauthRoutes, resourceChallenge } from './oauth/index.js';
import {
  agentRoutes,
  deferredChildRoutes,
  type EventRoutesOptions,
  effectRoutes,
  eventRoutes,
  fileRoutes,
  interactionRoutes,
  mcpAuthorizationRoutes,
  mcpOAuthRoutes,
  serviceRoutes,
  spanRoutes,
  streamRoutes,
  threadRoutes,
  waitRoutes,
} from './routes/index.js';
import { tenantScheduleRoutes, threadScheduleRoutes } from './schedules/index.js';
import { webhookRoutes } from './webhooks/index.js';

export interface AppOptions {
  mcp?: McpOptions;
  events?: EventRoutesOptions;
}

export function createApp(registry: Registry, options: AppOptions = {}) {
  const app = new OpenAPIHono<HttpEnv>({ defaultHook: validationHook });
  // First, so it wraps everything below: every answer leaves with the security headers.
  app.use('*', securityHeaders());

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error.apiError);
    if (error instanceof HTTPException) {
      return c.json({ error: { code: 'invalid_request', message: error.message } }, error.status);
    }
    console.error(error);
    return errorResponse(c, { status: 500, code: 'internal_error', message: 'the request failed inside the runtime' });
  });
  app.notFound((c) =>
    errorResponse(c, { status: 404, code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` }),
  );

  // Browsers asking for `/` get the inspector page, a static asset (wrangler.toml [assets]) under the
  // inspector's policy; clients asking for JSON get the service index.
  app.use('/', async (c, next) => {
    const assets = (c.env as { ASSETS?: Fetcher }).ASSETS;
    const page = c.req.method === 'GET' && !c.req.header('accept')?.includes('application/json');
    return assets && page ? withSecurityHeaders(await assets.fetch(c.req.raw), INSPECTOR_POLICY) : next();
  });
  declareBearerAuth(app);
  app.route(
    '/',
    serviceRoutes(registry, (serverUrl) => openApiDocument(app, serverUrl)),
  );
  // A browser starting or returning from an MCP server's authorization: no key, a one-time link and
  // then the cookie that link set.
  app.route('/oauth', mcpOAuthRoutes());
  // An MCP client signing in with OAuth 2.1 (IDN-7): discovery, token, registration and the page a
  // person signs in on with their key or token, which the same sign-in checks.
  app.route('/', oauthRoutes(resolvePrincipal));
  app.use('/api/*', signIn());
  app.route('/api/agents', agentRoutes(registry));
  app.route('/api/limits', limitRoutes());
  app.route('/api/keys', apiKeyRoutes());
  app.route('/api/audit', auditRoutes());
  app.route('/api/usage', usageRoutes());
  app.route('/api/webhooks', webhookRoutes());
  app.route('/api/schedules', tenantScheduleRoutes(registry));
  app.route('/api/threads', streamRoutes());
  app.route('/api/threads', eventRoutes(options.events));
  app.route('/api/threads', fileRoutes());
  app.route('/api/threads', interactionRoutes());
  app.route('/api/threads', mcpAuthorizationRoutes());
  app.route('/api/threads', deferredChildRoutes());
  app.route('/api/threads', effectRoutes());
  app.route('/api/threads', spanRoutes());
  app.route('/api/threads', threadScheduleRoutes());
  // FORK-2, FORK-3, FORK-6: forks, edits and rewinds.
  app.route('/api/threads', historyRoutes());
  app.route('/api/threads', messageRoutes());
  app.route('/api/threads', threadRoutes(registry));
  app.route('/api/waits', waitRoutes());
  // After every thread route of the runtime's own: an endpoint one of them would answer is refused.
  mountThreadEndpoints(app, registry);
  // The same keys, the same users: an MCP client sees exactly the threads its key owns (THR-6).
  // Or an OAuth access token issued here (IDN-7), whose 401 names where to get one.
  app.use('/mcp', resourceChallenge());
  app.use('/mcp', signIn());
  app.route('/mcp', mcpRoutes(registry, options.mcp));
  return app;
}
