/**
 * IDN-2, IDN-9: signing in with an issued key, resolver by resolver, in workerd against its D1: the
 * principal a key stands for, the refusals and their codes, and last use recorded at most once a
 * minute (the stored time moved back by hand, never by waiting).
 */
import { env } from 'cloudflare:workers';

const workerEnv = env;

import { describe, expect, it } from 'vitest';
import { resolveIssuedKey } from '../../../src/http/identity/issued-key.js';
import { ApiKeyStore } from '../../../src/thread/keys/index.js';

const store = new ApiKeyStore(env.DB);

function makeKey(extra: { expires_at?: number | null; role?: 'viewer' | 'admin' } = {}) {
  return store.create({
    tenant: 'resolver',
    role: extra.role ?? 'viewer',
    name: null,
    expires_at: extra.expires_at ?? null,
    created_by: 'admin',
  });
}

describe('IDN-2: resolveIssuedKey', () => {
  it('a key stands for its tenant, subject and role; any other kind of token is not its business', async () => {
    const { key, listing } = await makeKey({ role: 'admin' });
    expect(await resolveIssuedKey(key, env)).toEqual({
      ok: true,
      principal: { tenant: 'resolver', subject: `key_${listing.id}`, role: 'admin', via: 'key', keyId: listing.id },
    });
    for (const other of ['test-key-alice', 'eyJhbGciOiJFUzI1NiJ9.e30.sig', `SAK_${key.slice(4)}`]) {
      expect(await resolveIssuedKey(other, env)).toBeNull();
    }
  });

  it('revoked is key_revoked and expired is token_expired, but only to the holder of the key', async () => {
    const revoked = await makeKey();
    await store.revoke(revoked.listing.id);
    expect(await resolveIssuedKey(revoked.key, env)).toMatchObject({ ok: false, code: 'key_revoked' });
    const expired = await makeKey({ expires_at: Date.now() - 1 });
    expect(await resolveIssuedKey(expired.key, env)).toMatchObject({ ok: false, code: 'token_expired' });
    // The same ids with a wrong secret say nothing about either state.
    for (const { key } of [revoked, expired]) {
      const wrong = `${key.slice(0, -2)}${key.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(await resolveIssuedKey(wrong, env)).toEqual({
        ok: false,
        code: 'unauthorized',
        message: 'invalid credentials',
      });
    }
  });

  it('without a TENANTS binding: records last use once, then not again within a minute, then again when older', async () => {
    // With the binding, the tenant's object keeps the row and notes the use (test/node/thread/tenancy/key-states.test.ts).
    const env = { ...workerEnv, TENANTS: undefined };
    const { key, listing } = await makeKey();
    expect((await store.listing(listing.id))?.last_used_at).toBeNull();
    await resolveIssuedKey(key, env);
    const first = (await store.listing(listing.id))?.last_used_at;
    expect(first).toEqual(expect.any(Number));
    // A use a moment later writes nothing: the stored time stays the first one.
    await env.DB.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?')
      .bind(Date.now() - 30_000, listing.id)
      .run();
    await resolveIssuedKey(key, env);
    expect((await store.listing(listing.id))?.last_used_at).toBeLessThanOrEqual(Date.now() - 30_000);
    // Once the stored time is older than a minute, the next use records itself.
    const stale = Date.now() - 61_000;
    await env.DB.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').bind(stale, listing.id).run();
    await resolveIssuedKey(key, env);
    expect((await store.listing(listing.id))?.last_used_at).toBeGreaterThan(stale + 60_000);
  });
});
