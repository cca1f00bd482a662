/**
 * The client's admin calls (client.keys, client.audit, client.limits) against a real `wrangler dev`,
 * as an operator's script makes them: the bootstrap admin (ADMIN_KEY) makes an admin key for a
 * tenant; that admin, through a client of its own, makes a key for a program, lists the keys (never
 * a secret), renames it and lowers its role, rotates it (the old key refused as `key_revoked`, the
 * new one working), revokes it, reads the audit log of all that, and sets and reads the tenant's
 * limits. A key of the Worker's settings that is no admin is refused every admin call with 403
 * `forbidden`, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client, createClient, type IssuedApiKey } from '../../client/index.js';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';

const ADMIN_KEY = 'client-admin-e2e-bootstrap';
/** A key of API_KEYS with the member role: signed in, but no admin. */
const MEMBER_KEY = 'client-admin-e2e-member';
const TENANT = 'acme';

let dev: WranglerDev;
/** The bootstrap admin. */
let bootstrap: Client;
/** The admin of TENANT, with the key the bootstrap admin made for it. */
let admin: Client;
let adminKey: IssuedApiKey;
/** Every key made here, none of which a listing or the log may show. */
const secrets: string[] = [];

const clientOf = (apiKey: string) => createClient({ baseUrl: dev.url, apiKey });

/** What a call threw (or a failure naming what it answered instead). */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const outcome = await call.then(
    (answer) => new Error(`expected a refusal, got ${JSON.stringify(answer)}`),
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError)) throw outcome;
  return outcome;
}

beforeAll(async () => {
  dev = await startWranglerDev({
    // One build for the whole run: an edit of the sources meanwhile must not restart the Worker.
    snapshot: true,
    inspector: false,
    vars: { API_KEYS: `${MEMBER_KEY}:member`, ADMIN_KEY, DEMO_MODE: 'true' },
  });
  bootstrap = clientOf(ADMIN_KEY);
  adminKey = await bootstrap.keys.create({ tenant: TENANT, role: 'admin', name: 'acme admin' });
  admin = clientOf(adminKey.key);
  secrets.push(adminKey.key);
});

afterAll(async () => {
  await dev?.stop();
});

describe('the client’s keys, audit log and limits against wrangler dev', () => {
  it('IDN-2: a key is made, used, listed without its secret, changed, rotated and revoked', async () => {
    expect(adminKey).toMatchObject({ tenant: TENANT, role: 'admin', name: 'acme admin', created_by: 'admin' });
    expect(adminKey.key.startsWith(adminKey.prefix)).toBe(true);

    const issued = await admin.keys.create({ role: 'member', name: 'ci runner' });
    secrets.push(issued.key);
    expect(issued).toMatchObject({ tenant: TENANT, role: 'member', name: 'ci runner', created_by: adminKey.subject });
    const program = clientOf(issued.key);
    expect((await program.threads.list()).threads).toEqual([]);

    const { keys, next } = await admin.keys.list();
    expect(keys.map((key) => key.id)).toEqual([issued.id, adminKey.id]);
    expect(next).toBeNull();
    for (const key of keys) expect(key).not.toHaveProperty('key');
    for (const secret of secrets) expect(JSON.stringify(keys)).not.toContain(secret);
    const first = await admin.keys.list({ limit: 1 });
    expect(first.keys.map((key) => key.id)).toEqual([issued.id]);
    const second = await admin.keys.list({ limit: 1, after: first.next ?? '' });
    expect(second.keys.map((key) => key.id)).toEqual([adminKey.id]);

    const renamed = await admin.keys.update(issued.id, { name: 'ci', role: 'viewer' });
    expect(renamed).toMatchObject({ id: issued.id, name: 'ci', role: 'viewer' });
    expect(await refusal(program.threads.create({ agent: 'assistant' }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });

    const rotated = await admin.keys.rotate(issued.id);
    expect(rotated).toMatchObject({ subject: issued.subject, role: 'viewer', name: 'ci', revoked_at: null });
    secrets.push(rotated.key);
    expect(rotated.id).not.toBe(issued.id);
    expect(await refusal(program.threads.list())).toMatchObject({ status: 401, code: 'key_revoked' });
    const successor = clientOf(rotated.key);
    expect((await successor.threads.list()).threads).toEqual([]);
    const old = (await admin.keys.list()).keys.find((key) => key.id === issued.id);
    expect(old).toMatchObject({ replaced_by: rotated.id });
    expect(old?.revoked_at).toEqual(expect.any(Number));
    expect(await refusal(admin.keys.rotate(issued.id))).toMatchObject({ status: 409, code: 'key_revoked' });

    const revoked = await admin.keys.revoke(rotated.id);
    expect(revoked.revoked_at).toEqual(expect.any(Number));
    expect(await refusal(successor.threads.list())).toMatchObject({ status: 401, code: 'key_revoked' });
    expect(await admin.keys.revoke(rotated.id)).toEqual(revoked);

    // Another tenant's key is answered as no key at all; the bootstrap admin's tenant is untouched.
    const outsider = await bootstrap.keys.create({ role: 'member' });
    expect(await refusal(admin.keys.revoke(outsider.id))).toMatchObject({ status: 404, code: 'key_not_found' });
    expect(await refusal(admin.keys.list({ tenant: 'default' }))).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await clientOf(outsider.key).threads.list()).threads).toEqual([]);
  });

  it('IDN-8: the audit log names each change, who made it, newest first, and never a secret', async () => {
    const { entries, next } = await admin.audit.list();
    expect(next).toBeNull();
    expect(entries.map((entry) => entry.action)).toEqual([
      'key.revoked',
      'key.rotated',
      'key.renamed',
      'key.role_changed',
      'key.created',
      'key.created',
    ]);
    expect(entries.every((entry) => entry.tenant === TENANT)).toBe(true);
    expect(entries.at(-1)?.actor).toMatchObject({ subject: 'admin', role: 'admin', via: 'admin_key' });
    expect(entries.at(-2)?.actor).toMatchObject({ subject: adminKey.subject, role: 'admin' });
    expect(entries.find((entry) => entry.action === 'key.role_changed')?.detail).toEqual({
      from: 'member',
      to: 'viewer',
    });
    for (const secret of secrets) expect(JSON.stringify(entries)).not.toContain(secret);

    const page = await admin.audit.list({ limit: 2 });
    expect(page.entries).toEqual(entries.slice(0, 2));
    expect((await admin.audit.list({ limit: 2, after: page.next ?? '' })).entries).toEqual(entries.slice(2, 4));
    expect((await bootstrap.audit.list({ tenant: TENANT })).entries).toEqual(entries);
    expect(await refusal(admin.audit.list({ after: 'not-a-cursor' }))).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
  });

  it('IDN-5: an admin sets its tenant’s limits and reads them back; the change is audited', async () => {
    const before = await admin.limits.get();
    expect(before).toMatchObject({ tenant: TENANT, override: null });

    const limits = { tenant: { requestsPerMinute: 1000, costPerDay: 25 }, principal: { threadsPerHour: 50 } };
    const set = await admin.limits.set(limits);
    expect(set.override).toEqual(limits);
    expect(set.effective.tenant?.requestsPerMinute).toBe(1000);
    expect(set.effective.principal?.threadsPerHour).toBe(50);
    expect(set.propagation_seconds).toBeGreaterThan(0);
    expect(await admin.limits.get()).toEqual(set);
    expect(await bootstrap.limits.get({ tenant: TENANT })).toEqual(set);

    const cleared = await admin.limits.set({ tenant: { requestsPerMinute: null } });
    expect(cleared.override?.tenant?.requestsPerMinute).toBeNull();
    // An override replaces the one before: the earlier per-principal limit is gone.
    expect(cleared.override?.principal?.threadsPerHour).toBeUndefined();
    expect(cleared.effective.principal?.threadsPerHour).toBeUndefined();

    const { entries } = await admin.audit.list({ limit: 2 });
    expect(entries.map((entry) => [entry.action, entry.actor.subject])).toEqual([
      ['limits.changed', adminKey.subject],
      ['limits.changed', adminKey.subject],
    ]);
    expect(await refusal(admin.limits.get({ tenant: 'default' }))).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('IDN-4: a client without the admin role is refused every admin call with 403 forbidden, nothing changed', async () => {
    const member = clientOf(MEMBER_KEY);
    const keysBefore = await bootstrap.keys.list();
    const auditBefore = await bootstrap.audit.list();
    const limitsBefore = await bootstrap.limits.get();

    const refusals = await Promise.all([
      refusal(member.keys.create({ role: 'admin' })),
      refusal(member.keys.list()),
      refusal(member.keys.rotate(adminKey.id)),
      refusal(member.keys.update(adminKey.id, { role: 'viewer' })),
      refusal(member.keys.revoke(adminKey.id)),
      refusal(member.audit.list()),
      refusal(member.limits.get()),
      refusal(member.limits.set({ tenant: { requestsPerMinute: 0 } })),
    ]);
    for (const error of refusals) expect(error).toMatchObject({ status: 403, code: 'forbidden' });

    expect(await bootstrap.keys.list()).toEqual(keysBefore);
    expect(await bootstrap.audit.list()).toEqual(auditBefore);
    expect(await bootstrap.limits.get()).toEqual(limitsBefore);
    expect((await admin.keys.list()).keys.find((key) => key.id === adminKey.id)?.revoked_at).toBeNull();
    expect((await admin.keys.list()).keys.find((key) => key.id === adminKey.id)?.role).toBe('admin');
    expect((await member.threads.list()).threads).toEqual([]);
  });
});
