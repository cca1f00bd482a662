/**
 * What a credential comes to: a principal, or a refusal with one of the stable codes every sign-in
 * failure uses (IDN-9). Each way of signing in is a resolver: it says `null` for a token that is not
 * its kind, so the next one may try.
 */
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';

export type AuthErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'token_expired'
  | 'invalid_token'
  | 'key_revoked'
  | 'rate_limited'
  | 'quota_exceeded';

export type Resolution = { ok: true; principal: Principal } | { ok: false; code: AuthErrorCode; message: string };

/** One way of signing in: `null` when `token` is not of its kind. */
export type Resolver = (token: string, env: RuntimeEnv) => Promise<Resolution | null>;

export function refused(code: AuthErrorCode, message: string): Resolution {
  return { ok: false, code, message };
}
