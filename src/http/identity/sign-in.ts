/**
 * A credential to a principal (IDN-1): the resolvers are asked in order — keys issued through the API,
 * an identity provider's JWTs, keys in the Worker's settings — and the first that knows the token's
 * kind decides. A token none of them knows is refused as `unauthorized`, the same answer whatever it
 * looked like, so a caller learns nothing about which kinds exist.
 */
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { KEY_PREFIX } from '../../thread/keys/index.js';
import { resolveIssuedKey } from './issued-key.js';
import { resolveJwt } from './jwt-resolver.js';
import { jwtConfigured } from './jwt-settings.js';
import { type Resolution, type Resolver, refused } from './resolution.js';
import { resolveStaticKey } from './static-keys.js';

/** A credential longer than this is refused before it is hashed or parsed. */
export const MAX_CREDENTIAL_LENGTH = 8192;

const RESOLVERS: Resolver[] = [resolveIssuedKey, resolveJwt, resolveStaticKey];

/**
 * Whether `token` has a way to sign in: a key issued through the API always does (the keys live in D1
 * and outlast the bootstrap key that issued them); anything else needs API_KEYS, ADMIN_KEY or an
 * identity provider set up. Without any, every request is refused: never open by accident.
 */
export function signInConfigured(env: RuntimeEnv, token: string | null): boolean {
  if (token?.startsWith(KEY_PREFIX)) return true;
  return [env.API_KEYS, env.ADMIN_KEY].some((value) => (value ?? '').trim() !== '') || jwtConfigured(env);
}

export async function resolvePrincipal(token: string, env: RuntimeEnv): Promise<Resolution> {
  if (token === '' || token.length > MAX_CREDENTIAL_LENGTH) return refused('unauthorized', 'invalid credentials');
  for (const resolve of RESOLVERS) {
    const resolution = await resolve(token, env);
    if (resolution) return resolution;
  }
  return refused('unauthorized', 'invalid credentials');
}
