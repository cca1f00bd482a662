/**
 * The browser's side of an MCP server's OAuth authorization (LOCK-4), without a key: a browser has
 * none. `GET /oauth/mcp/start` opens a one-time link the thread's owner asked for with their key
 * (mcp-authorizations.ts): the browser gets a cookie holding a random nonce and is sent to the
 * authorization server with a `state` the thread bound to that nonce's hash. `GET
 * /oauth/mcp/callback` is where the authorization server sends it back: only with that cookie, once,
 * before it expires, does the thread exchange the code; anything else is refused and changes nothing
 * (thread/mcp/browser-binding.ts, oauth-cookie.ts). Both answer short HTML pages.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type ApiError, type RpcResult, threadStub } from '../../thread/bindings/index.js';
import { type HttpEnv, routeApp, ThreadIdParam, unwrap } from '../contract/index.js';
import { bindBrowser, boundNonce, cookiePolicy, newNonce, nonceHash, unbindBrowser } from './oauth-cookie.js';

/** Where a start link points, under PUBLIC_URL (the routes below are mounted at `/oauth`). */
export const MCP_OAUTH_START_PATH = '/oauth/mcp/start';

const Page = z.string().openapi({ description: 'A short HTML page saying what happened' });
const html = (description: string) => ({ description, content: { 'text/html': { schema: Page } } });

const mcpOAuthStart = createRoute({
  method: 'get',
  path: '/mcp/start',
  operationId: 'mcpOAuthStart',
  tags: ['mcp'],
  summary: "Open a one-time link that starts an MCP server's authorization in this browser (LOCK-4)",
  description:
    'No key: the link is the authority, once, for five minutes. Sets the cookie that binds the authorization ' +
    "to this browser (`__Host-mcp-oauth-<state>`: Secure, HttpOnly, SameSite=Lax) and redirects to the MCP server's " +
    'authorization server.',
  security: [],
  request: {
    query: z.object({ ticket: z.string().max(200).optional().describe('The link secret, `<thread id>.<random>`') }),
  },
  responses: {
    302: {
      description: 'To the authorization server, with a `state` bound to the cookie set here',
      headers: z.object({ location: z.string(), 'set-cookie': z.string() }),
    },
    400: html('The link is unknown, used already or expired: start again from the thread'),
    500: html('`PUBLIC_URL` is not set, or is http on a host other than localhost'),
  },
});

const mcpOAuthCallback = createRoute({
  method: 'get',
  path: '/mcp/callback',
  operationId: 'mcpOAuthCallback',
  tags: ['mcp'],
  summary: "Where an MCP server's authorization server sends the browser back (LOCK-4)",
  description:
    'No key: completes the authorization only in the browser that opened its start link (its cookie), once, ' +
    'within ten minutes; clears that cookie.',
  security: [],
  request: {
    query: z.object({
      state: z.string().optional().describe('`<thread id>.<random>`, as the thread made it when the link was opened'),
      code: z.string().optional().describe('The authorization code'),
      error: z.string().optional(),
      error_description: z.string().optional(),
    }),
  },
  responses: {
    200: html('Authorized'),
    400: html('Not authorized: an unknown or spent state, an expired authorization, a refusal, or a failed exchange'),
    403: html('This browser did not start the authorization: no binding cookie, or another one'),
    500: html('`PUBLIC_URL` is not set, or is http on a host other than localhost'),
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, detail: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`;
}

/** The thread a link or state names: its text up to the first dot. */
function threadOf(value: string): string | null {
  const thread = ThreadIdParam.safeParse(value.split('.')[0]);
  return thread.success ? thread.data : null;
}

const FAILED = 'Authorization failed';

/** Why the thread refused, or null when it answered. */
function refusalOf<T>(result: RpcResult<T>): ApiError | null {
  return result.ok ? null : result.error;
}

/** The thread's refusal as a page. */
function refusal(c: Context<HttpEnv>, error: ApiError) {
  const status = error.status >= 500 ? 500 : error.status === 403 ? 403 : 400;
  return c.html(page(FAILED, error.message), status);
}

export function mcpOAuthRoutes() {
  const app = routeApp();

  app.openapi(mcpOAuthStart, async (c) => {
    const policy = cookiePolicy(c.env.PUBLIC_URL);
    if ('refused' in policy) return c.html(page(FAILED, policy.refused), 500);
    const ticket = c.req.valid('query').ticket ?? '';
    const thread = threadOf(ticket);
    if (!thread) return c.html(page(FAILED, 'This authorization link names no thread.'), 400);
    const nonce = newNonce();
    const stub = threadStub(c.env, thread);
    const begun = await stub.mcpBeginAuthorization(ticket, await nonceHash(nonce));
    const refused = refusalOf(begun);
    if (refused) return refusal(c, refused);
    const { state, authorization_url } = unwrap(begun);
    bindBrowser(c, policy, state, nonce);
    c.header('cache-control', 'no-store');
    return c.redirect(authorization_url, 302);
  });

  app.openapi(mcpOAuthCallback, async (c) => {
    const policy = cookiePolicy(c.env.PUBLIC_URL);
    if ('refused' in policy) return c.html(page(FAILED, policy.refused), 500);
    const query = c.req.valid('query');
    const state = query.state ?? '';
    const thread = threadOf(state);
    if (!thread) return c.html(page(FAILED, 'The request does not name a thread.'), 400);
    const nonce = boundNonce(c, policy, state);
    // Whatever the thread answers, this browser's cookie for this state has done its work.
    if (nonce !== undefined) unbindBrowser(c, policy, state);
    const outcome = query.code
      ? { code: query.code }
      : { error: query.error_description ?? query.error ?? 'no authorization code' };
    const stub = threadStub(c.env, thread);
    const hash = nonce ? await nonceHash(nonce) : null;
    const result = await stub.mcpAuthorized(state, hash, outcome);
    const refused = refusalOf(result);
    if (refused) return refusal(c, refused);
    const { server, authorized, error } = unwrap(result);
    return authorized
      ? c.html(page('Authorized', `The thread can now use the MCP server "${server}". You can close this window.`), 200)
      : c.html(page(FAILED, `The MCP server "${server}" was not authorized: ${error ?? 'unknown error'}`), 400);
  });
  return app;
}
