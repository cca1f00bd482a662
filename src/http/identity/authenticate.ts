/**
 * The sign-in middleware of `/api` and `/mcp` (THR-6, IDN-1, IDN-9): the request's credential becomes
 * the principal every route reads, or the request ends here with a JSON error whose code says why.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { admitRequest } from '../../thread/tenancy/index.js';
import type { HttpEnv } from '../contract/index.js';
import { errorResponse } from '../contract/index.js';
import { oauthSignIn } from '../oauth/index.js';
import { presentedToken } from './presented-token.js';
import type { AuthErrorCode } from './resolution.js';
import { resolvePrincipal, signInConfigured } from './sign-in.js';

const STATUS: Record<AuthErrorCode, 401 | 403 | 429> = {
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  key_revoked: 401,
  forbidden: 403,
  rate_limited: 429,
  quota_exceeded: 429,
};

/** A refusal as its JSON error; a 401 carries the challenge RFC 6750 asks for, which MCP clients read. */
export function authFailure(c: Context, code: AuthErrorCode, message: string, retryAfter?: number): Response {
  const status = STATUS[code];
  if (status === 401) {
    const error = code === 'unauthorized' ? '' : ', error="invalid_token"';
    c.header('WWW-Authenticate', `Bearer realm="standard-agents"${error}`);
  }
  return errorResponse(c, { status, code, message, ...(retryAfter !== undefined ? { retryAfter } : {}) });
}

const NOT_CONFIGURED =
  'no way of signing in is set up (API_KEYS, ADMIN_KEY or an identity provider), so every request is refused. ' +
  'Running locally: put API_KEYS=<key> in .dev.vars next to wrangler.toml and restart wrangler dev. ' +
  'Deployed: npx wrangler secret put API_KEYS';

export function signIn(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const token = presentedToken(c.req.raw, c.req.path);
    // An access token issued through OAuth signs in on /mcp only (IDN-7); anything else goes to the resolvers.
    const oauth = token ? await oauthSignIn(c) : null;
    if (!oauth && !signInConfigured(c.env, token)) {
      return errorResponse(c, { status: 503, code: 'auth_not_configured', message: NOT_CONFIGURED });
    }
    if (!token) return authFailure(c, 'unauthorized', 'missing API key: send "Authorization: Bearer <key>"');
    const resolution = oauth ?? (await resolvePrincipal(token, c.env));
    if (!resolution.ok) return authFailure(c, resolution.code, resolution.message);
    // IDN-5: the request counts against its tenant's and its own requests-per-minute limits.
    const admission = await admitRequest(c.env, resolution.principal);
    if (!admission.ok) return authFailure(c, admission.code, admission.message, admission.retryAfterSeconds);
    c.set('principal', resolution.principal);
    c.set('userId', resolution.principal.subject);
    await next();
  };
}
