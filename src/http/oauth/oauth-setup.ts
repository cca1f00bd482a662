/**
 * What every OAuth route starts with (IDN-7): this origin's authorization server and its storage, or
 * the answer saying OAuth is not set up — a 404 naming the `OAUTH_KV` binding, as JSON for clients
 * and as a page for a person's browser.
 */
import type { Context } from 'hono';
import { errorResponse, type HttpEnv } from '../contract/index.js';
import { type AuthorizationServer, authorizationServerFor } from './authorization-server.js';
import { messagePage } from './authorize-page.js';
import { type OAuthStorageEnv, oauthStorage } from './oauth-env.js';

export interface OAuthSetup {
  origin: string;
  server: AuthorizationServer;
  storage: OAuthStorageEnv;
}

const NOT_SET_UP =
  'OAuth sign-in for MCP clients is not set up on this server: it needs a KV namespace bound as OAUTH_KV ' +
  '(wrangler.toml). MCP clients can still send an API key as a bearer token.';

export async function oauthSetup(c: Context<HttpEnv>, as: 'json' | 'page'): Promise<OAuthSetup | Response> {
  const storage = oauthStorage(c.env);
  const origin = new URL(c.req.url).origin;
  const server = storage ? await authorizationServerFor(origin) : null;
  if (storage && server) return { origin, server, storage };
  if (as === 'page') return c.html(messagePage('OAuth is not set up', NOT_SET_UP), 404);
  return errorResponse(c, { status: 404, code: 'oauth_not_configured', message: NOT_SET_UP });
}
