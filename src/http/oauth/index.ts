/**
 * The OAuth room's door (IDN-7): `/mcp` accepts OAuth 2.1 access tokens issued by this Worker
 * (`@cloudflare/workers-oauth-provider`, its clients and grants in the `OAUTH_KV` namespace) beside
 * keys and identity-provider tokens. The routes (discovery, token, registration, the authorization
 * page), the principal an access token signs in as, and the 401 challenge naming the resource's
 * metadata.
 */
export type { CredentialCheck } from './authorize-route.js';
export { oauthPrincipal } from './oauth-principal.js';
export { oauthRoutes } from './oauth-routes.js';
export { resourceChallenge } from './resource-metadata.js';
