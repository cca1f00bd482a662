/**
 * Signing in on `/mcp` with an access token this Worker issued (IDN-7). The sign-in middleware asks
 * here first: a token of the library's shape is looked up in `OAUTH_KV`, checked to be bound to
 * this origin's `/mcp` and unexpired, and its grant's principal comes back. Anything else — a key,
 * a JWT, a token that is not (or no longer) valid — is `null`, and the request goes on to the usual
 * sign-in, which refuses what it does not know. Tokens are accepted on `/mcp` only: they were issued
 * for that resource, never for `/api`.
 */
import type { Context } from 'hono';
import type { Principal } from '../../thread/access/index.js';
import type { HttpEnv } from '../contract/index.js';
import { authorizationServerFor } from './authorization-server.js';
import { principalOfGrant } from './grant-principal.js';
import { oauthStorage } from './oauth-env.js';
import { RESOURCE_PATH, resourceFor } from './oauth-paths.js';

/**
 * `<user>:<grant>:<secret>`, each part from the library's alphabet. A cheap look at the shape, so a
 * key or a JWT costs no KV read; a key that happens to look like this is still only looked up, and
 * goes on to the usual sign-in when it is not a token.
 */
const ISSUED_TOKEN = /^[A-Za-z0-9_-]{1,128}:[A-Za-z0-9_-]{1,128}:[A-Za-z0-9_-]{1,256}$/;

function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  return match ? (match[1] as string) : null;
}

/** The principal of the request's OAuth access token on `/mcp`, or null when it carries none. */
export async function oauthPrincipal(c: Context<HttpEnv>): Promise<Principal | null> {
  if (c.req.path !== RESOURCE_PATH) return null;
  const storage = oauthStorage(c.env);
  const token = bearerToken(c.req.raw);
  if (!storage || !token || !ISSUED_TOKEN.test(token)) return null;
  const origin = new URL(c.req.url).origin;
  const server = await authorizationServerFor(origin);
  if (!server) return null;
  const validated = await server.validateToken(resourceFor(origin), token, storage);
  return validated ? principalOfGrant(validated.props) : null;
}
