/**
 * Sign-in with an identity provider's JWTs (IDN-3): `resolveJwt` is the resolver the sign-in pipeline
 * asks after issued keys. It claims a token only when JWT sign-in is configured and the token is a
 * compact JWS (three base64url parts whose first is a JSON header), so keys of other kinds pass on.
 *
 * A claimed token is verified with jose against the provider's published keys: the signature, by an
 * accepted asymmetric algorithm only; the issuer; the audience; `exp` (required) and `nbf`, with a
 * clock tolerance of 30 seconds either way for clocks that disagree a little. Then its claims become
 * the principal (jwt-claims.ts). Cloudflare Access sends its token in `Cf-Access-Jwt-Assertion`;
 * `accessAssertion` reads it.
 */
import { type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { HttpError } from '../contract/index.js';
import { principalFromClaims } from './jwt-claims.js';
import { providerKeys } from './jwt-keys.js';
import { refusalFor } from './jwt-refusals.js';
import { type JwtSettings, jwtConfiguration } from './jwt-settings.js';
import { type Resolution, refused } from './resolution.js';

/** A token longer than this is refused before it is decoded. */
export const MAX_JWT_BYTES = 8 * 1024;
/** How far the token's times may be off from the Worker's clock: 30 seconds. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** The header Cloudflare Access puts its signed assertion in. */
export const ACCESS_ASSERTION_HEADER = 'Cf-Access-Jwt-Assertion';

const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** The decoded text of a base64url part, or null. */
function base64urlText(part: string): string | null {
  try {
    const binary = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

/**
 * Whether `token` is shaped like a compact JWS: three base64url parts (the signature may be empty, as
 * an `alg: none` token's is, so that such a token is refused here rather than passed on) whose first
 * decodes to a JSON object. Cheap, and no key of another kind looks like it.
 */
export function looksLikeJws(token: string): boolean {
  if (!JWS_SHAPE.test(token)) return false;
  const header = base64urlText(token.slice(0, token.indexOf('.')));
  if (header === null || !header.trimStart().startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(header);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** Verifies `token` against `keys` under `settings` and maps its claims to a principal. */
export async function verifyJwt(token: string, settings: JwtSettings, keys: JWTVerifyGetKey): Promise<Resolution> {
  if (token.length > MAX_JWT_BYTES) {
    return refused('invalid_token', `the token is larger than ${MAX_JWT_BYTES} bytes`);
  }
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, keys, {
      issuer: settings.issuer,
      audience: settings.audiences,
      algorithms: settings.algorithms,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    return refusalFor(error);
  }
  return principalFromClaims(claims, settings);
}

/**
 * The resolver: null unless JWT sign-in is configured and `token` looks like a JWS. A misconfigured
 * provider answers 503 naming what to fix (thrown as the HTTP error), never lets a token through.
 */
export async function resolveJwt(token: string, env: RuntimeEnv): Promise<Resolution | null> {
  const configuration = jwtConfiguration(env);
  if (configuration.state === 'off') return null;
  if (!JWS_SHAPE.test(token)) return null;
  if (token.length > MAX_JWT_BYTES) return refused('invalid_token', `the token is larger than ${MAX_JWT_BYTES} bytes`);
  if (!looksLikeJws(token)) return null;
  if (configuration.state === 'misconfigured') {
    throw new HttpError({ status: 503, code: 'auth_not_configured', message: configuration.message });
  }
  const { settings } = configuration;
  return verifyJwt(token, settings, providerKeys(settings.jwksUrl, settings.egress));
}

/** The Cloudflare Access assertion a request carries, or null. */
export function accessAssertion(request: Request): string | null {
  const value = request.headers.get(ACCESS_ASSERTION_HEADER)?.trim();
  return value ? value : null;
}
