/**
 * IDN-2 and IDN-8 through HTTP, in workerd: an admin makes a key, the key signs in to a real route,
 * listings show its prefix and never its secret, and revoking, expiring or rotating it refuses it on
 * the very next request. Only admins reach the key and audit routes; an admin of one tenant cannot see
 * or touch another's keys; every change is in the tenant's audit log, which never holds a key. The
 * Worker runs with a bootstrap `ADMIN_KEY` added to the test bindings.
 */
import { describe, expect, it } from 'vitest';
import { FORGED_ISSUED_KEYS, HOSTILE_KEY_BODIES, HOSTILE_KEY_IDS } from '../../support/hostile-corpus.js';
import { ADMIN_KEY, call } from '../../support/worker-calls.js';

const ALICE = 'test-key-alice';

interface KeyListing {
  id: string;
  prefix: string;
  tenant: string;
  subject: string;
  role: string;
  name: string | null;
  created_at: number;
  created_by: string;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  replaced_by: string | null;
}
type IssuedKey = KeyListing & { key: string };
interface AuditEntry {
  tenant: string;
  actor: { subject: string; role: string; via: string };
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

/** Makes a key as `by` (the bootstrap admin unless told), expecting 201. */
async function createKey(body: Record<string, unknown>, by = ADMIN_KEY): Promise<IssuedKey> {
  const response = await call('/api/keys', by, { method: 'POST', json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as IssuedKey;
}

async function listKeys(by: string, query = ''): Promise<{ keys: KeyListing[]; next: string | null; text: string }> {
  const response = await call(`/api/keys${query}`, by);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { ...(JSON.parse(text) as { keys: KeyListing[]; next: string | null }), text };
}

async function auditLog(by: string, query = ''): Promise<{ entries: AuditEntry[]; next: string | null; text: string }> {
  const response = await call(`/api/audit${query}`, by);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { ...(JSON.parse(text) as { entries: AuditEntry[]; next: string | null }), text };
}

/** A real route the key signs in to: list the caller's threads. */
function signInWith(key: string): Promise<Response> {
  return call('/api/threads', key);
}

describe('IDN-2: API keys as data, through HTTP', () => {
  it('create → sign in on a real route → list (prefix, no secret) → revoke → the next request is key_revoked', async () => {
    const issued = await createKey({ role: 'member', name: 'ci runner', tenant: 'acme' });
    expect(issued.key).toMatch(/^sak_[a-z2-7]{10}_[A-Za-z0-9_-]{43}$/);
    expect(issued.prefix).toBe(`sak_${issued.id}`);
    expect(issued).toMatchObject({ tenant: 'acme', subject: `key_${issued.id}`, role: 'member', name: 'ci runner' });

    const started = await call('/api/threads', issued.key, { method: 'POST', json: { agent: 'general' } });
    expect(started.status).toBe(201);
    const thread = ((await started.json()) as { id: string; user_id: string | null }).id;
    const listed = await signInWith(issued.key);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { threads: { id: string }[] }).threads.map((t) => t.id)).toContain(thread);

    const { keys, text } = await listKeys(ADMIN_KEY, '?tenant=acme');
    const row = keys.find((key) => key.id === issued.id);
    expect(row?.prefix).toBe(issued.prefix);
    expect(row?.last_used_at).toEqual(expect.any(Number));
    expect(text).not.toContain(issued.key.slice(15));
    expect(text).not.toContain('hash');

    const revoked = await call(`/api/keys/${issued.id}`, ADMIN_KEY, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    const revokedAt = ((await revoked.json()) as KeyListing).revoked_at;
    expect(revokedAt).toEqual(expect.any(Number));
    const refused = await signInWith(issued.key);
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe('key_revoked');
    // Revoking again is the same answer and changes nothing.
    const again = await call(`/api/keys/${issued.id}`, ADMIN_KEY, { method: 'DELETE' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as KeyListing).revoked_at).toBe(revokedAt);
  });

  it('a key made with an expiry in the past is token_expired; one expiring next year signs in', async () => {
    const past = await createKey({ role: 'member', expires_at: '2001-02-03T04:05:06Z' });
    expect(past.expires_at).toBe(Date.parse('2001-02-03T04:05:06Z'));
    const refused = await signInWith(past.key);
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe('token_expired');
    const future = await createKey({ role: 'member', expires_at: Date.now() + 365 * 24 * 3600_000 });
    expect((await signInWith(future.key)).status).toBe(200);
  });

  it('rotate: a new key with the same subject, role, name and expiry; the old one is refused at once', async () => {
    const old = await createKey({ role: 'viewer', name: 'dashboard', expires_at: 4_102_444_800_000 });
    expect((await signInWith(old.key)).status).toBe(200);
    const response = await call(`/api/keys/${old.id}/rotate`, ADMIN_KEY, { method: 'POST' });
    expect(response.status).toBe(201);
    const rotated = (await response.json()) as IssuedKey;
    expect(rotated.id).not.toBe(old.id);
    expect(rotated).toMatchObject({
      tenant: old.tenant,
      subject: old.subject,
      role: 'viewer',
      name: 'dashboard',
      expires_at: 4_102_444_800_000,
    });
    const oldUse = await signInWith(old.key);
    expect(oldUse.status).toBe(401);
    expect(await errorCode(oldUse)).toBe('key_revoked');
    expect((await signInWith(rotated.key)).status).toBe(200);
    const listing = (await listKeys(ADMIN_KEY)).keys.find((key) => key.id === old.id);
    expect(listing?.replaced_by).toBe(rotated.id);
    // A revoked key has nothing to rotate: no second key comes of it.
    const twice = await call(`/api/keys/${old.id}/rotate`, ADMIN_KEY, { method: 'POST' });
    expect(twice.status).toBe(409);
    expect(await errorCode(twice)).toBe('key_revoked');
  });

  it('PATCH changes the role: the key signs in with the new role on its next request', async () => {
    const key = await createKey({ role: 'admin', tenant: 'patching' });
    expect((await call('/api/keys', key.key)).status).toBe(200);
    const patched = await call(`/api/keys/${key.id}`, ADMIN_KEY, {
      method: 'PATCH',
      json: { role: 'viewer', name: 'demoted' },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ role: 'viewer', name: 'demoted' });
    const refused = await call('/api/keys', key.key);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('forbidden');
    const { entries } = await auditLog(ADMIN_KEY, '?tenant=patching');
    expect(entries.slice(0, 2).map((entry) => [entry.action, entry.detail])).toEqual([
      ['key.renamed', { from: null, to: 'demoted' }],
      ['key.role_changed', { from: 'admin', to: 'viewer' }],
    ]);
  });

  it('every role below admin, and an API_KEYS key, gets 403 forbidden from every key and audit route', async () => {
    const target = await createKey({ role: 'member' });
    const tokens = [ALICE];
    for (const role of ['viewer', 'member', 'approver']) tokens.push((await createKey({ role })).key);
    // What the refused requests could have changed; last_used_at records their sign-in, nothing more.
    const unchanged = async () => (await listKeys(ADMIN_KEY)).keys.map(({ last_used_at: _, ...key }) => key);
    const before = await unchanged();
    for (const token of tokens) {
      for (const [method, path, json] of [
        ['POST', '/api/keys', { role: 'admin' }],
        ['GET', '/api/keys', undefined],
        ['POST', `/api/keys/${target.id}/rotate`, undefined],
        ['DELETE', `/api/keys/${target.id}`, undefined],
        ['PATCH', `/api/keys/${target.id}`, { role: 'admin' }],
        ['GET', '/api/audit', undefined],
      ] as const) {
        const response = await call(path, token, { method, ...(json ? { json } : {}) });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(await errorCode(response)).toBe('forbidden');
      }
    }
    expect(await unchanged()).toEqual(before);
    expect((await signInWith(target.key)).status).toBe(200);
  });

  it("tenant B's admin cannot see, rotate, change or revoke tenant A's keys (404), nor name tenant A", async () => {
    const a = await createKey({ role: 'member', tenant: 'tenant-a' });
    const adminB = await createKey({ role: 'admin', tenant: 'tenant-b' });
    const own = await createKey({ role: 'viewer' }, adminB.key);
    expect(own.tenant).toBe('tenant-b');
    const { keys } = await listKeys(adminB.key);
    expect(keys.map((key) => key.id).sort()).toEqual([adminB.id, own.id].sort());
    for (const [method, path, json] of [
      ['POST', `/api/keys/${a.id}/rotate`, undefined],
      ['DELETE', `/api/keys/${a.id}`, undefined],
      ['PATCH', `/api/keys/${a.id}`, { role: 'admin' }],
    ] as const) {
      const response = await call(path, adminB.key, { method, ...(json ? { json } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await errorCode(response)).toBe('key_not_found');
    }
    for (const path of ['/api/keys?tenant=tenant-a', '/api/audit?tenant=tenant-a']) {
      expect((await call(path, adminB.key)).status, path).toBe(403);
    }
    const foreign = await call('/api/keys', adminB.key, {
      method: 'POST',
      json: { role: 'admin', tenant: 'tenant-a' },
    });
    expect(foreign.status).toBe(403);
    // Tenant A's key is untouched and still signs in; nothing of A's was logged by B.
    const aRow = (await listKeys(ADMIN_KEY, '?tenant=tenant-a')).keys;
    expect(aRow).toEqual([expect.objectContaining({ id: a.id, role: 'member', revoked_at: null })]);
    expect((await signInWith(a.key)).status).toBe(200);
    expect((await auditLog(ADMIN_KEY, '?tenant=tenant-a')).entries.map((e) => e.actor.subject)).toEqual(['admin']);
  });

  it('pages of keys follow the cursor: every key once, newest first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createKey({ role: 'viewer', tenant: 'paging' })).id);
    const seen: string[] = [];
    let query = '?tenant=paging&limit=2';
    for (;;) {
      const page = await listKeys(ADMIN_KEY, query);
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys.map((key) => key.id));
      if (!page.next) break;
      query = `?tenant=paging&limit=2&after=${encodeURIComponent(page.next)}`;
    }
    expect(seen.sort()).toEqual(made.sort());
    const bad = await call('/api/keys?after=not-a-cursor', ADMIN_KEY);
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_request');
  });
});

describe('IDN-8: the audit log, through HTTP', () => {
  it('records each change with its actor, newest first, per tenant; it never holds a key', async () => {
    const adminKey = await createKey({ role: 'admin', tenant: 'audited', name: 'ops' });
    const key = await createKey({ role: 'member', name: 'bot' }, adminKey.key);
    await call(`/api/keys/${key.id}`, adminKey.key, { method: 'PATCH', json: { role: 'approver' } });
    const rotated = (await (
      await call(`/api/keys/${key.id}/rotate`, adminKey.key, { method: 'POST' })
    ).json()) as IssuedKey;
    await call(`/api/keys/${rotated.id}`, adminKey.key, { method: 'DELETE' });
    await call(`/api/keys/${rotated.id}`, adminKey.key, { method: 'DELETE' });

    const { entries, text } = await auditLog(adminKey.key);
    expect(entries.map((entry) => [entry.action, entry.target])).toEqual([
      ['key.revoked', rotated.id],
      ['key.rotated', key.id],
      ['key.role_changed', key.id],
      ['key.created', key.id],
      ['key.created', adminKey.id],
    ]);
    expect(entries.every((entry) => entry.tenant === 'audited')).toBe(true);
    expect(entries[0]?.actor).toEqual({ subject: adminKey.subject, role: 'admin', via: 'key' });
    expect(entries[4]?.actor).toEqual({ subject: 'admin', role: 'admin', via: 'admin_key' });
    expect(entries[2]?.detail).toEqual({ from: 'member', to: 'approver' });
    expect(entries[1]?.detail).toMatchObject({ replaced_by: rotated.id });
    for (const secret of [adminKey.key, key.key, rotated.key]) expect(text).not.toContain(secret.slice(15));

    // Pages follow the cursor; another tenant's admin sees none of it.
    const first = await auditLog(adminKey.key, '?limit=2');
    expect(first.entries).toHaveLength(2);
    const second = await auditLog(adminKey.key, `?limit=2&after=${encodeURIComponent(first.next ?? '')}`);
    expect(second.entries.map((entry) => entry.action)).toEqual(['key.role_changed', 'key.created']);
    const other = await createKey({ role: 'admin', tenant: 'elsewhere' });
    expect((await auditLog(other.key)).entries.map((entry) => entry.target)).toEqual([other.id]);
    const bad = await call('/api/audit?after=%27%20OR%201%3D1', adminKey.key);
    expect(bad.status).toBe(400);
  });

  it('the OpenAPI document declares the key and audit operations and holds no key', async () => {
    const issued = await createKey({ role: 'viewer' });
    const response = await call('/openapi.json', null);
    const text = await response.text();
    const document = JSON.parse(text) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path).map((op) => op.operationId));
    expect(operations).toEqual(
      expect.arrayContaining([
        'createApiKey',
        'listApiKeys',
        'rotateApiKey',
        'revokeApiKey',
        'updateApiKey',
        'listAudit',
      ]),
    );
    expect(text).not.toContain(issued.key.slice(15));
    expect(text).not.toContain(ADMIN_KEY);
  });
});

describe('IDN-2, IDN-9: hostile input to the key routes and sign-in', () => {
  it('refuses every hostile body with 400 and makes no key', async () => {
    const before = (await listKeys(ADMIN_KEY)).keys;
    for (const { label, body } of HOSTILE_KEY_BODIES) {
      const response = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: body });
      expect(response.status, label).toBe(400);
      expect(await errorCode(response), label).toBe('invalid_request');
    }
    expect((await listKeys(ADMIN_KEY)).keys).toEqual(before);
  });

  it('refuses every forged key with 401 unauthorized; the real key and its record are unharmed', async () => {
    const real = await createKey({ role: 'member', tenant: 'forgeries' });
    const revoked = await createKey({ role: 'member', tenant: 'forgeries' });
    await call(`/api/keys/${revoked.id}`, ADMIN_KEY, { method: 'DELETE' });
    const before = (await listKeys(ADMIN_KEY, '?tenant=forgeries')).keys;
    for (const { label, token } of FORGED_ISSUED_KEYS) {
      for (const source of [real.key, revoked.key]) {
        const response = await signInWith(token(source));
        expect(response.status, label).toBe(401);
        expect(await errorCode(response), label).toBe('unauthorized');
      }
    }
    expect((await listKeys(ADMIN_KEY, '?tenant=forgeries')).keys).toEqual(before);
    expect((await signInWith(real.key)).status).toBe(200);
  });

  it('a key id made of SQL or junk in a path is 404 key_not_found, and the table is unharmed', async () => {
    const real = await createKey({ role: 'member' });
    for (const id of HOSTILE_KEY_IDS) {
      for (const [method, suffix] of [
        ['DELETE', ''],
        ['PATCH', ''],
        ['POST', '/rotate'],
      ] as const) {
        const response = await call(`/api/keys/${encodeURIComponent(id)}${suffix}`, ADMIN_KEY, {
          method,
          ...(method === 'PATCH' ? { json: { role: 'admin' } } : {}),
        });
        expect(response.status, `${method} ${id.slice(0, 40)}`).toBe(404);
        expect(await errorCode(response)).toBe('key_not_found');
      }
    }
    expect((await signInWith(real.key)).status).toBe(200);
    expect((await listKeys(ADMIN_KEY)).keys.map((key) => key.id)).toContain(real.id);
  });
});
