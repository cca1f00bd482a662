/**
 * Signing in (IDN-1, IDN-9): where a request's credential is, the ways of signing in (keys in the
 * Worker's settings, keys issued through the API, identity providers' JWTs), the middleware that
 * turns the credential into the principal routes read, and the JSON refusals.
 */
export { authFailure, signIn } from './authenticate.js';
export { presentedToken } from './presented-token.js';
export type { AuthErrorCode, Resolution } from './resolution.js';
export { MAX_CREDENTIAL_LENGTH, resolvePrincipal, signInConfigured } from './sign-in.js';
export { DEFAULT_KEY_ROLE, userIdForKey } from './static-keys.js';
