/**
 * Signing in with a key issued through the API (IDN-2, IDN-9): `sak_<id>_<secret>`.
 *
 * What never changes of a key — its tenant and the SHA-256 of the whole key — is read from D1 once
 * per isolate. What may change — its role, revocation and expiry — is asked on every request of the
 * key's tenant object, which keeps it in memory and is told of every change before the change is
 * answered (thread/tenancy/key-states.ts); so a key revoked or expired a moment ago is refused on the
 * very next request, whichever isolate serves it. Without the TENANTS binding, the row is read from D1
 * on every request instead: just as exact, a D1 read slower.
 *
 * The presented key's digest is compared with the stored one in constant time before anything else
 * about the key is told: only its holder learns that it was revoked (`key_revoked`) or expired
 * (`token_expired`); an unknown id and a wrong secret are the same `unauthorized`.
 */

import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { ApiKeyStore, digestsEqual, KEY_PREFIX, keyDigest, keyIdOf } from '../../thread/keys/index.js';
import { currentKeyState, keyLapse } from '../../thread/tenancy/index.js';
import { type Resolution, refused } from './resolution.js';

const INVALID = 'invalid credentials';

/** What never changes of a key: read once per isolate. */
interface KeyFacts {
  tenant: string;
  hash: string;
}

/** Facts kept at most: a flood of distinct ids empties the cache rather than growing it. */
const MAX_FACTS = 10_000;
const facts = new Map<string, KeyFacts>();

async function keyFacts(store: ApiKeyStore, id: string): Promise<KeyFacts | null> {
  const known = facts.get(id);
  if (known) return known;
  const record = await store.record(id);
  if (!record) return null;
  if (facts.size >= MAX_FACTS) facts.clear();
  const found = { tenant: record.tenant, hash: record.hash };
  facts.set(id, found);
  return found;
}

/** The principal of an issued key; null when the token is not one (it does not start with `sak_`). */
export async function resolveIssuedKey(token: string, env: RuntimeEnv): Promise<Resolution | null> {
  if (!token.startsWith(KEY_PREFIX)) return null;
  const id = keyIdOf(token);
  if (id === null) return refused('unauthorized', INVALID);
  const store = new ApiKeyStore(env.DB);
  const known = await keyFacts(store, id);
  // A digest is computed whether or not the id exists, so an unknown id takes as long as a known one.
  const digest = await keyDigest(token);
  if (!known || !digestsEqual(digest, known.hash)) return refused('unauthorized', INVALID);
  const state = await currentKeyState(env, known.tenant, id);
  if (!state) return refused('unauthorized', INVALID);
  const lapse = keyLapse(state);
  if (lapse === 'key_revoked') return refused(lapse, 'this key was revoked');
  if (lapse === 'token_expired') return refused(lapse, 'this key has expired');
  return {
    ok: true,
    principal: { tenant: known.tenant, subject: state.subject, role: state.role, via: 'key', keyId: id },
  };
}
