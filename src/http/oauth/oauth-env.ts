/**
 * Whether OAuth is on (IDN-7): the `OAUTH_KV` namespace holds the provider's clients, grants and
 * hashed tokens. Without the binding every OAuth path answers that OAuth is not set up, and `/mcp`
 * signs in with keys and identity-provider tokens exactly as it does without OAuth.
 */
import type { RuntimeEnv } from '../../thread/bindings/index.js';

/** The env the library reads: its KV namespace under the name it expects. */
export interface OAuthStorageEnv {
  OAUTH_KV: KVNamespace;
}

/** The library's env, or null when `OAUTH_KV` is not bound. */
export function oauthStorage(env: RuntimeEnv): OAuthStorageEnv | null {
  return env.OAUTH_KV ? { OAUTH_KV: env.OAUTH_KV } : null;
}
