/**
 * `GET /oauth/mcp/callback`: where an MCP server's authorization server sends the user back after
 * they authorized a thread (LOCK-4). A browser arrives here, so there is no bearer key: the `state`
 * the thread made names the thread and carries a random part only that thread knows, and a state no
 * authorization under way carries is refused without changing anything.
 */
import { Hono } from 'hono';
import { threadStub } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import { HttpError, ThreadIdParam, unwrap } from '../contract/index.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, detail: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`;
}

export function mcpOAuthRoutes() {
  const app = new Hono<HttpEnv>();
  app.get('/mcp/callback', async (c) => {
    const state = c.req.query('state') ?? '';
    const thread = ThreadIdParam.safeParse(state.split('.')[0]);
    if (!thread.success) return c.html(page('Authorization failed', 'The request does not name a thread.'), 400);
    const code = c.req.query('code');
    const outcome = code
      ? { code }
      : { error: c.req.query('error_description') ?? c.req.query('error') ?? 'no authorization code' };
    let result: { server: string; authorized: boolean; error?: string };
    try {
      result = unwrap(await threadStub(c.env, thread.data).mcpAuthorized(state, outcome));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return c.html(page('Authorization failed', error.apiError.message), 400);
    }
    const { server, authorized, error } = result;
    return authorized
      ? c.html(page('Authorized', `The thread can now use the MCP server "${server}". You can close this window.`))
      : c.html(
          page('Authorization failed', `The MCP server "${server}" was not authorized: ${error ?? 'unknown error'}`),
          400,
        );
  });
  return app;
}
