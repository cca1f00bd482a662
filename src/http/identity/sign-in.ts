/**
 * A credential to a principal (IDN-1): the resolvers are asked in order — keys issued through the API,
 * an identity provider's JWTs, keys in the Worker's settings — and the first that knows the token's
 * kind decides. A token none of them knows is refused as `unauthorized`, the same answer whatever it
 * looked like, so a caller learns nothing about which kinds exist.
 */
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { type Resolution, type Resolver, refused } from './resolution.js';
import { resolveStaticKey } from './static-keys.js';

/** A credential longer than this is refused before it is hashed or parsed. */
export const MAX_CREDENTIAL_LENGTH = 8192;

const RESOLVERS: Resolver[] = [resolveStaticKey];

/** Whether any way of signing in is set up; without one, every request is refused (never open by accident). */
export function signInConfigured(env: RuntimeEnv): boolean {
  return [env.API_KEYS, env.ADMIN_KEY].some((value) => (value ?? '').trim() !== '');
}

export async function resolvePrincipal(token: string, env: RuntimeEnv): Promise<Resolution> {
  if (token === '' || token.length > MAX_CREDENTIAL_LENGTH) return refused('unauthorized', 'invalid credentials');
  for (const resolve of RESOLVERS) {
    const resolution = await resolve(token, env);
    if (resolution) return resolution;
  }
  return refused('unauthorized', 'invalid credentials');
}
