/**
 * `POST /api/threads/:id/mcp-authorizations` (LOCK-4): the thread's owner, with their key, starts the
 * OAuth authorization a call waits for (`mcp_auth`). The answer is a one-time link to open in the
 * browser that will authorize: that browser, and only it, can complete the authorization
 * (mcp-oauth.ts). The inspector opens it in a new window; any client can hand it to its user.
 */
import { createRoute } from '@hono/zod-openapi';
import { threadStub } from '../../thread/bindings/index.js';
import {
  AUTH_FAILURES,
  failure,
  json,
  jsonBody,
  jsonRequest,
  McpAuthorizationBody,
  McpStartLinkSchema,
  routeApp,
  THREAD_NOT_FOUND,
  ThreadParams,
  unwrap,
} from '../contract/index.js';
import { MCP_OAUTH_START_PATH } from './mcp-oauth.js';
import { cookiePolicy } from './oauth-cookie.js';

const startMcpAuthorization = createRoute({
  method: 'post',
  path: '/{id}/mcp-authorizations',
  operationId: 'startMcpAuthorization',
  tags: ['interactions'],
  summary: "Start the OAuth authorization of an MCP server a call waits for: a one-time link for the user's browser",
  middleware: [jsonBody()],
  request: { params: ThreadParams, body: jsonRequest(McpAuthorizationBody) },
  responses: {
    200: json(McpStartLinkSchema, 'The link: valid once, for five minutes; a new one replaces it'),
    400: failure('`invalid_request`: the body'),
    404: THREAD_NOT_FOUND,
    409: failure('`not_waiting`: no call of the thread waits for this server, or `no_authorization`'),
    413: failure('`body_too_large`: JSON bodies are limited to 1 MiB'),
    500: failure('`oauth_unavailable`: PUBLIC_URL is not set, or is http on a host other than localhost'),
    ...AUTH_FAILURES,
  },
});

export function mcpAuthorizationRoutes() {
  const app = routeApp();
  app.openapi(startMcpAuthorization, async (c) => {
    const { id } = c.req.valid('param');
    const { server } = c.req.valid('json');
    const policy = cookiePolicy(c.env.PUBLIC_URL);
    if ('refused' in policy) {
      return c.json({ error: { code: 'oauth_unavailable', message: policy.refused } }, 500);
    }
    const link = unwrap(await threadStub(c.env, id).mcpStartLink(c.get('principal'), id, server));
    const startUrl = new URL(MCP_OAUTH_START_PATH, c.env.PUBLIC_URL);
    startUrl.searchParams.set('ticket', link.ticket);
    return c.json({ server: link.server, start_url: startUrl.href, expires_at: link.expires_at }, 200);
  });
  return app;
}
