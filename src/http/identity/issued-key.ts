/**
 * Signing in with a key issued through the API (IDN-2, IDN-9): `sak_<id>_<secret>`. Every request reads
 * the key's row by its id — one primary-key read — so a key revoked or expired a moment ago is refused
 * on the very next request, whichever isolate serves it.
 *
 * The presented key's SHA-256 is compared with the stored one in constant time before anything else
 * about the row is told: only the key's holder learns that it was revoked (`key_revoked`) or expired
 * (`token_expired`); an unknown id and a wrong secret are the same `unauthorized`.
 */

import type { RuntimeEnv } from '../../thread/bindings/index.js';
import {
  ApiKeyStore,
  digestsEqual,
  KEY_PREFIX,
  keyDigest,
  keyIdOf,
  LAST_USE_RESOLUTION_MS,
} from '../../thread/keys/index.js';
import { type Resolution, refused } from './resolution.js';

const INVALID = 'invalid credentials';

/** The principal of an issued key; null when the token is not one (it does not start with `sak_`). */
export async function resolveIssuedKey(token: string, env: RuntimeEnv): Promise<Resolution | null> {
  if (!token.startsWith(KEY_PREFIX)) return null;
  const id = keyIdOf(token);
  if (id === null) return refused('unauthorized', INVALID);
  const store = new ApiKeyStore(env.DB);
  const record = await store.record(id);
  // A digest is computed whether or not the id exists, so an unknown id takes as long as a known one.
  const digest = await keyDigest(token);
  if (!record || !digestsEqual(digest, record.hash)) return refused('unauthorized', INVALID);
  const now = Date.now();
  if (record.revoked_at !== null && record.revoked_at <= now) return refused('key_revoked', 'this key was revoked');
  if (record.expires_at !== null && record.expires_at <= now) return refused('token_expired', 'this key has expired');
  if (record.last_used_at === null || record.last_used_at <= now - LAST_USE_RESOLUTION_MS) {
    await store.recordUse(id, now);
  }
  return {
    ok: true,
    principal: { tenant: record.tenant, subject: record.subject, role: record.role, via: 'key', keyId: record.id },
  };
}
