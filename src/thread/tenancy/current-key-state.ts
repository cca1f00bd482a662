/**
 * An issued key's role, revocation and expiry as they are now (IDN-2), for every way a request can
 * stand on a key — the key itself, or an OAuth grant made by signing in with it: from the key's tenant
 * object, which keeps them in memory and is told of every change (key-states.ts), or, without a
 * TENANTS binding, from the key's D1 row, with its use noted at most once a minute.
 */
import type { KeyState, RuntimeEnv } from '../bindings/index.js';
import { ApiKeyStore, LAST_USE_RESOLUTION_MS } from '../keys/index.js';
import { tenantStub } from './limits-cache.js';

export async function currentKeyState(env: RuntimeEnv, tenant: string, id: string): Promise<KeyState | null> {
  const stub = tenantStub(env, tenant);
  if (stub) return stub.keyState(id);
  const store = new ApiKeyStore(env.DB);
  const record = await store.record(id);
  const now = Date.now();
  if (record && (record.last_used_at === null || record.last_used_at <= now - LAST_USE_RESOLUTION_MS)) {
    await store.recordUse(id, now);
  }
  return record;
}

/** Why a key may no longer sign in: revoked, or past its expiry; null while it may. */
export function keyLapse(state: KeyState, now = Date.now()): 'key_revoked' | 'token_expired' | null {
  if (state.revoked_at !== null && state.revoked_at <= now) return 'key_revoked';
  if (state.expires_at !== null && state.expires_at <= now) return 'token_expired';
  return null;
}
