/**
 * `/mcp` as an OAuth protected resource (RFC 9728, IDN-7): the metadata document naming the
 * resource and its authorization server (this origin), and the `resource_metadata` parameter a 401
 * from `/mcp` carries so an MCP client finds that document — the first step of its discovery.
 */
import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from '../contract/index.js';
import { authorizationServerFor } from './authorization-server.js';
import { oauthStorage } from './oauth-env.js';
import { resourceFor, resourceMetadataUrl } from './oauth-paths.js';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

export function protectedResourceMetadata(origin: string): ProtectedResourceMetadata {
  return {
    resource: resourceFor(origin),
    authorization_servers: [origin],
    // The token travels in the Authorization header only: never in a query string a log could keep.
    bearer_methods_supported: ['header'],
    resource_name: 'Standard Agents MCP server',
  };
}

/**
 * On `/mcp`, with OAuth on for this origin: a 401 from the sign-in names the resource metadata in
 * its `WWW-Authenticate` challenge (RFC 9728 §5.1), after whatever the sign-in said.
 */
export function resourceChallenge(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const challenge = c.res.headers.get('www-authenticate');
    if (c.res.status !== 401 || !challenge?.startsWith('Bearer') || !oauthStorage(c.env)) return;
    const origin = new URL(c.req.url).origin;
    if (!(await authorizationServerFor(origin))) return;
    const separator = challenge.trim() === 'Bearer' ? ' ' : ', ';
    // In place: the refusal is the app's own JSON answer, and Hono's `c.res =` would copy the old
    // challenge back over a new one.
    c.res.headers.set('www-authenticate', `${challenge}${separator}resource_metadata="${resourceMetadataUrl(origin)}"`);
  };
}
