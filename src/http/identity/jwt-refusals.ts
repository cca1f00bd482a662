/**
 * Why a JWT was refused, in words (IDN-3, IDN-9): each failure jose reports becomes `invalid_token`
 * (or `token_expired`) with a short reason that names the check, never the token or a claim's value.
 * A failure that is not the token's fault — the provider's keys could not be fetched or read — is not
 * a refusal of the token: it is answered 503, so a client retries instead of signing in again.
 */
import { HttpError } from '../contract/index.js';
import { JwksUnavailable } from './jwt-keys.js';
import { type Resolution, refused } from './resolution.js';

/** What a failed check of each claim means to the caller. */
const CLAIM_REASONS: Record<string, string> = {
  iss: 'the token was issued by another issuer',
  aud: 'the token is not for this audience',
  nbf: 'the token is not valid yet',
  exp: 'the token has no expiry',
  iat: 'the token has an invalid issue time',
};

/** jose's error codes for a token that is wrong, and the reason each is given. */
const TOKEN_REASONS: Record<string, string> = {
  ERR_JOSE_ALG_NOT_ALLOWED: "the token's algorithm is not accepted",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature does not verify",
  ERR_JWKS_NO_MATCHING_KEY: "no key of the identity provider matches the token's key id",
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token matches several keys of the identity provider',
  ERR_JWS_INVALID: 'the token is not a well-formed signed JWT',
  ERR_JWT_INVALID: 'the token is not a well-formed signed JWT',
  ERR_JOSE_NOT_SUPPORTED: "the token's algorithm or key type is not supported",
};

/** The 503 of a provider whose keys cannot be had; the reason names the fetch, never a token. */
export function providerUnavailable(reason: string): HttpError {
  return new HttpError({
    status: 503,
    code: 'identity_provider_unavailable',
    message: `the identity provider's signing keys could not be fetched: ${reason}`,
  });
}

/** The refusal for an error `jwtVerify` threw, or throws the 503 when the provider's side failed. */
export function refusalFor(error: unknown): Resolution {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_JWT_EXPIRED') return refused('token_expired', 'the token has expired');
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    const name = String((error as { claim?: unknown }).claim);
    return refused('invalid_token', CLAIM_REASONS[name] ?? `the token's ${name} claim is not valid`);
  }
  if (typeof code === 'string' && Object.hasOwn(TOKEN_REASONS, code)) {
    return refused('invalid_token', TOKEN_REASONS[code] as string);
  }
  if (error instanceof JwksUnavailable) throw providerUnavailable(error.message);
  if (code === 'ERR_JWKS_TIMEOUT') throw providerUnavailable('the key set URL did not answer in time');
  if (code === 'ERR_JWKS_INVALID' || code === 'ERR_JWK_INVALID') throw providerUnavailable('the key set is not valid');
  if (code === 'ERR_JOSE_GENERIC') throw providerUnavailable('the key set is not valid JSON');
  throw error;
}
