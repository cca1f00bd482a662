/**
 * `GET /oauth/mcp/callback`: where an MCP server's authorization server sends the user back after
 * they authorized a thread (LOCK-4). A browser arrives here, so there is no bearer key: the `state`
 * the thread made names the thread and carries a random part only that thread knows, and a state no
 * authorization under way carries is refused without changing anything.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { threadStub } from '../../thread/bindings/index.js';
import { HttpError, routeApp, ThreadIdParam, unwrap } from '../contract/index.js';

const Page = z.string().openapi({ description: 'A short HTML page saying what happened' });

const mcpOAuthCallback = createRoute({
  method: 'get',
  path: '/mcp/callback',
  operationId: 'mcpOAuthCallback',
  tags: ['mcp'],
  summary: "Where an MCP server's authorization server sends the user back (LOCK-4)",
  description: 'No key: the `state` the thread made names the thread and proves the authorization is under way.',
  security: [],
  request: {
    query: z.object({
      state: z.string().optional().describe('`<thread id>.<random>`, as the thread made it'),
      code: z.string().optional().describe('The authorization code'),
      error: z.string().optional(),
      error_description: z.string().optional(),
    }),
  },
  responses: {
    200: { description: 'Authorized', content: { 'text/html': { schema: Page } } },
    400: {
      description: 'Not authorized: an unknown state, a refusal, or a failed exchange',
      content: { 'text/html': { schema: Page } },
    },
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, detail: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`;
}

export function mcpOAuthRoutes() {
  const app = routeApp();
  app.openapi(mcpOAuthCallback, async (c) => {
    const query = c.req.valid('query');
    const state = query.state ?? '';
    const thread = ThreadIdParam.safeParse(state.split('.')[0]);
    if (!thread.success) return c.html(page('Authorization failed', 'The request does not name a thread.'), 400);
    const outcome = query.code
      ? { code: query.code }
      : { error: query.error_description ?? query.error ?? 'no authorization code' };
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
