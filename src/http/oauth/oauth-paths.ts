/**
 * Where the OAuth surface of `/mcp` lives (IDN-7). Under `/mcp/oauth/`, apart from `/oauth/`, which
 * is the runtime's own MCP *client* coming back from other servers' authorizations; the discovery
 * documents sit at the well-known paths RFC 8414 and RFC 9728 give them, for an issuer and a
 * resource that are this Worker's origin and its `/mcp`.
 */

/** The protected resource: tokens issued here are bound to `<origin>/mcp` and accepted there only. */
export const RESOURCE_PATH = '/mcp';
export const AUTHORIZE_PATH = '/mcp/oauth/authorize';
export const TOKEN_PATH = '/mcp/oauth/token';
export const REGISTER_PATH = '/mcp/oauth/register';
/** RFC 8414 authorization server metadata for the issuer `<origin>`. */
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** RFC 9728 protected resource metadata: `<prefix>/mcp` names the resource, the bare prefix is the fallback clients try. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The canonical resource identifier of `/mcp` on an origin. */
export function resourceFor(origin: string): string {
  return `${origin}${RESOURCE_PATH}`;
}

/** Where a client reads the resource's metadata, as the 401 challenge names it. */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${RESOURCE_PATH}`;
}
