/**
 * The OAuth 2.1 authorization server of `/mcp` (IDN-7), one per origin the Worker is reached at:
 * the library fixes its issuer and resource when it is made, and a Worker learns its own origin
 * only from the requests it serves (`wrangler dev` on a free port, workers.dev, a custom domain).
 * A token is bound to the origin it was issued on, so a client keeps to the address it discovered.
 *
 * What the library serves: RFC 8414 metadata, the token endpoint (authorization code with PKCE,
 * S256 only for public clients; refresh tokens rotating on use; RFC 7009 revocation) and RFC 7591
 * dynamic registration. The authorization page is this room's own (authorize-route.ts).
 */
import { AUTHORIZE_PATH, REGISTER_PATH, resourceFor, TOKEN_PATH } from './oauth-paths.js';

type Library = typeof import('./oauth-library.js');
export type AuthorizationServer = InstanceType<Library['OAuthAuthorizationServer']>;

/** An access token lives an hour; a client keeps going with its refresh token. */
const ACCESS_TOKEN_TTL_S = 60 * 60;
/** A grant ends 30 days after its last use (its last code exchange or refresh). */
const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;

/** Origins seen are few (the Worker's own addresses); the bound only guards against a flood of Host names. */
const MAX_ORIGINS = 8;
const servers = new Map<string, AuthorizationServer | null>();

function build(library: Library, origin: string): AuthorizationServer | null {
  try {
    return new library.OAuthAuthorizationServer<{ OAUTH_KV: KVNamespace }>({
      issuer: origin,
      resources: [resourceFor(origin)],
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      accessTokenTTL: ACCESS_TOKEN_TTL_S,
      refreshTokenTTL: REFRESH_TOKEN_TTL_S,
      refreshTokenIdleTTL: REFRESH_TOKEN_TTL_S,
    });
  } catch (error) {
    // OAuth 2.1 wants https, or http on a loopback host: an origin like http://192.168.1.5:8787
    // gets no OAuth, and keys go on working there.
    console.warn(`OAuth sign-in is off on ${origin}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The authorization server of `origin`, or null when OAuth cannot serve that origin. */
export async function authorizationServerFor(origin: string): Promise<AuthorizationServer | null> {
  const known = servers.get(origin);
  if (known !== undefined) return known;
  const library = await import('./oauth-library.js');
  const server = build(library, origin);
  if (servers.size >= MAX_ORIGINS) servers.delete(servers.keys().next().value as string);
  servers.set(origin, server);
  return server;
}
