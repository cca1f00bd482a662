/**
 * The OAuth room's door (IDN-7): `/mcp` accepts OAuth 2.1 access tokens issued by this Worker
 * (`@cloudflare/workers-oauth-provider`, its clients and grants in the `OAUTH_KV` namespace) beside
 * keys and identity-provider tokens. The routes (discovery, token, registration, the authorization
 * page), the sign-in of an access token (as the principal who allowed it, through the key they
 * allowed it with), and the 401 challenge naming the resource's metadata.
 */
export type { CredentialCheck } from './authorize-route.js';
export { oauthRoutes } from './oauth-routes.js';
export { type OAuthSignIn, oauthSignIn } from './oauth-sign-in.js';
export { resourceChallenge } from './resource-metadata.js';
