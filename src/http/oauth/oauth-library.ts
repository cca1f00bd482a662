/**
 * The OAuth library, loaded with the first request that needs it (IDN-7): what the rest of the room
 * uses of `@cloudflare/workers-oauth-provider`. Imported only dynamically, so a Worker that never
 * signs an MCP client in with OAuth never evaluates it (it warns at load that client metadata
 * documents are off, which is what this runtime wants).
 */
export { AuthorizationError, OAuthAuthorizationServer } from '@cloudflare/workers-oauth-provider';
