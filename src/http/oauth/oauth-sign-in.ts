/**
 * Signing in on `/mcp` with an access token this Worker issued (IDN-7). The sign-in middleware asks
 * here first: a token of the library's shape is looked up in `OAUTH_KV`, checked to be bound to
 * this origin's `/mcp` and unexpired, and its grant's principal comes back. Anything else — a key,
 * a JWT, a token that is not (or no longer) valid — is `null`, and the request goes on to the usual
 * sign-in, which refuses what it does not know. Tokens are accepted on `/mcp` only: they were issued
 * for that resource, never for `/api`.
 *
 * A grant is only as good as the key behind it: a grant made by signing in with a key issued through
 * the API asks for that key's current state on every use, exactly as the key itself does, so revoking
 * or expiring the key ends the grant on the next request, and a new role applies at once.
 */
import type { Context } from 'hono';
import type { Principal } from '../../thread/access/index.js';
import { currentKeyState, keyLapse } from '../../thread/tenancy/index.js';
import type { HttpEnv } from '../contract/index.js';
import { authorizationServerFor } from './authorization-server.js';
import { principalOfGrant } from './grant-principal.js';
import { oauthStorage } from './oauth-env.js';
import { RESOURCE_PATH, resourceFor } from './oauth-paths.js';

/** What an OAuth sign-in comes to, in the shape of every other way of signing in. */
export type OAuthSignIn =
  | { ok: true; principal: Principal }
  | { ok: false; code: 'key_revoked' | 'token_expired'; message: string };

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

/** The grant's principal as its issued key stands now: revoked or expired ends it, a new role applies. */
async function throughIssuedKey(c: Context<HttpEnv>, principal: Principal, keyId: string): Promise<OAuthSignIn> {
  const state = await currentKeyState(c.env, principal.tenant, keyId);
  const lapse = state ? keyLapse(state) : 'key_revoked';
  if (!state || lapse === 'key_revoked') {
    return { ok: false, code: 'key_revoked', message: 'the key this client was allowed with was revoked' };
  }
  if (lapse === 'token_expired') {
    return { ok: false, code: lapse, message: 'the key this client was allowed with has expired' };
  }
  return { ok: true, principal: { ...principal, subject: state.subject, role: state.role } };
}

/** The sign-in of the request's OAuth access token on `/mcp`, or null when it carries none. */
export async function oauthSignIn(c: Context<HttpEnv>): Promise<OAuthSignIn | null> {
  if (c.req.path !== RESOURCE_PATH) return null;
  const storage = oauthStorage(c.env);
  const token = bearerToken(c.req.raw);
  if (!storage || !token || !ISSUED_TOKEN.test(token)) return null;
  const origin = new URL(c.req.url).origin;
  const server = await authorizationServerFor(origin);
  if (!server) return null;
  const validated = await server.validateToken(resourceFor(origin), token, storage);
  const principal = validated ? principalOfGrant(validated.props) : null;
  if (!principal) return null;
  return principal.keyId ? throughIssuedKey(c, principal, principal.keyId) : { ok: true, principal };
}
