/**
 * Tenants' rate limits and spend quotas through HTTP, in workerd (IDN-5, IDN-6). Each test makes its
 * own tenants (keys issued by the bootstrap admin, ADMIN_KEY added to the test bindings) and sets
 * their limits with `PUT /api/limits`; the counts are the tenant's Durable Object's, so requests sent
 * at once are counted exactly: the limit's count gets through, the next is refused with 429
 * `rate_limited` and `Retry-After`, nothing of it is stored, and other tenants are not touched.
 * Lease expiry is shown by handing the tenant's object a clock; nothing here sleeps.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { TURN_LEASE_MS } from '../../src/thread/tenancy/index.js';
import { api, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { HOSTILE_LIMIT_SETTINGS } from '../support/hostile-corpus.js';
import { openStream } from '../support/socket.js';
import { ADMIN_KEY, call } from '../support/worker-calls.js';
import { countedScript, modelCalls } from './limits-app.js';

interface ErrorBody {
  error: { code: string; message: string };
}

/** A fresh tenant's name: no test shares one. */
function newTenant(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A key of `tenant` with `role`, issued by the bootstrap admin. */
async function keyIn(tenant: string, role = 'member'): Promise<string> {
  const response = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role } });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

async function setLimits(tenant: string, limits: Record<string, unknown>, by = ADMIN_KEY): Promise<Response> {
  return call(`/api/limits?tenant=${tenant}`, by, { method: 'PUT', json: limits });
}

async function startThread(key: string, body: Record<string, unknown> = { agent: 'limits' }): Promise<Response> {
  return api('/api/threads', { method: 'POST', json: body, key });
}

async function newThread(key: string): Promise<string> {
  const response = await startThread(key);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function post(id: string, key: string, content: string): Promise<Response> {
  return api(`/api/threads/${id}/messages`, { method: 'POST', json: { content }, key });
}

async function log(id: string, key: string): Promise<Message[]> {
  const response = await api(`/api/threads/${id}/messages?limit=1000`, { key });
  return ((await response.json()) as { messages: Message[] }).messages;
}

/** Expects a 429 `rate_limited` whose Retry-After is whole seconds within `range`. */
async function expectRateLimited(response: Response, range: [number, number]): Promise<void> {
  expect(response.status).toBe(429);
  expect(((await response.json()) as ErrorBody).error.code).toBe('rate_limited');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(range[0]);
  expect(retryAfter).toBeLessThanOrEqual(range[1]);
}

describe('rate limits (IDN-5)', () => {
  it('N requests sent at once get through, the N+1th is 429 rate_limited with Retry-After; another tenant is unaffected', async () => {
    const acme = newTenant('acme');
    const globex = newTenant('globex');
    const [alice, bob, carol] = [await keyIn(acme), await keyIn(acme), await keyIn(globex)];
    expect((await setLimits(acme, { tenant: { requestsPerMinute: 4 } })).status).toBe(200);
    const first = await Promise.all([1, 2, 3, 4].map(() => api('/api/threads', { key: alice })));
    expect(first.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    await expectRateLimited(await api('/api/threads', { key: alice }), [1, 60]);
    // The tenant's limit: its other principals are refused too; another tenant is not.
    await expectRateLimited(await api('/api/threads', { key: bob }), [1, 60]);
    expect((await api('/api/threads', { key: carol })).status).toBe(200);
  });

  it("a principal's limit counts each key on its own", async () => {
    const acme = newTenant('acme');
    const [alice, bob] = [await keyIn(acme), await keyIn(acme)];
    expect((await setLimits(acme, { principal: { requestsPerMinute: 2 } })).status).toBe(200);
    const first = await Promise.all([1, 2, 3].map(() => api('/api/threads', { key: alice })));
    expect(first.map((response) => response.status).sort()).toEqual([200, 200, 429]);
    expect((await api('/api/threads', { key: bob })).status).toBe(200);
  });

  it('threads started per hour: the limit gets through at once, the next start is refused and nothing is created', async () => {
    const acme = newTenant('acme');
    const globex = newTenant('globex');
    const [alice, carol] = [await keyIn(acme), await keyIn(globex)];
    expect((await setLimits(acme, { tenant: { threadsPerHour: 3 } })).status).toBe(200);
    const started = await Promise.all([1, 2, 3].map(() => startThread(alice)));
    expect(started.map((response) => response.status)).toEqual([201, 201, 201]);
    await expectRateLimited(await startThread(alice), [3500, 3600]);
    const listed = (await (await api('/api/threads', { key: alice })).json()) as { threads: unknown[] };
    expect(listed.threads).toHaveLength(3);
    expect((await startThread(carol)).status).toBe(201);
  });

  it('turns running at once: a turn waiting for an answer holds its slot; another thread waits until it ends', async () => {
    const acme = newTenant('acme');
    const alice = await keyIn(acme);
    expect((await setLimits(acme, { tenant: { concurrentTurns: 1 } })).status).toBe(200);
    const [first, second] = [await newThread(alice), await newThread(alice)];
    const asks = directive([
      { toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Go on?' }] } }] },
      { text: 'went on' },
    ]);
    expect((await post(first, alice, asks)).status).toBe(202);
    const waiting = await until(
      () =>
        api(`/api/threads/${first}`, { key: alice }).then(
          (r) => r.json() as Promise<{ waiting_for: { tool_call_id: string }[] }>,
        ),
      (view) => view.waiting_for.length > 0,
    );
    await expectRateLimited(await post(second, alice, 'hello'), [1, 60]);
    expect(await log(second, alice)).toEqual([]);
    const answered = await api(`/api/threads/${first}/answers`, {
      method: 'POST',
      key: alice,
      json: { tool_call_id: waiting.waiting_for[0]?.tool_call_id, answers: [['yes']] },
    });
    expect(answered.status).toBe(200);
    expect((await settled(first, alice)).at(-1)).toMatchObject({ role: 'assistant', content: 'went on' });
    // The first turn gave its slot back as it ended: the second thread's message now goes through.
    await until(
      () => post(second, alice, 'hello'),
      (response) => response.status !== 429,
    ).then((response) => expect(response.status).toBe(202));
    expect((await settled(second, alice)).at(-1)).toMatchObject({ role: 'assistant', content: 'echo: hello' });
  });

  it('a stop that ends a wait, or a delete, gives the slot back at once', async () => {
    const acme = newTenant('acme');
    const alice = await keyIn(acme);
    expect((await setLimits(acme, { tenant: { concurrentTurns: 1 } })).status).toBe(200);
    const [first, second, third] = [await newThread(alice), await newThread(alice), await newThread(alice)];
    const asks = directive([{ toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Go on?' }] } }] }]);
    const waitsIn = (id: string) =>
      until(
        () => thread(id, alice) as Promise<{ status: string }>,
        (view) => view.status === 'waiting' || view.status === 'awaiting_hitl',
      );
    expect((await post(first, alice, asks)).status).toBe(202);
    await waitsIn(first);
    await expectRateLimited(await post(second, alice, asks), [1, 60]);
    expect((await api(`/api/threads/${first}/stop`, { method: 'POST', key: alice })).status).toBe(200);
    expect((await post(second, alice, asks)).status).toBe(202);
    await waitsIn(second);
    await expectRateLimited(await post(third, alice, 'hello'), [1, 60]);
    expect((await api(`/api/threads/${second}`, { method: 'DELETE', key: alice })).status).toBe(204);
    expect((await post(third, alice, 'hello')).status).toBe(202);
    expect((await settled(third, alice)).at(-1)).toMatchObject({ role: 'assistant', content: 'echo: hello' });
  });

  it("a turn slot's lease expires unless renewed: a thread that dies holding one loses it (a clock, no sleeping)", async () => {
    const tenant = newTenant('lease');
    const stub = env.TENANTS?.get(env.TENANTS.idFromName(tenant));
    if (!stub) throw new Error('the test Worker binds TENANTS');
    await stub.setLimits(tenant, { tenant: { concurrentTurns: 1 }, principal: {} });
    const start = 1_000_000;
    expect(await stub.acquireTurn('thread-a', 'sub:a', start)).toMatchObject({ ok: true, fresh: true });
    expect(await stub.acquireTurn('thread-b', 'sub:b', start + 1_000)).toMatchObject({
      ok: false,
      code: 'rate_limited',
    });
    // Renewed while its turn runs: still held past the first lease's end.
    await stub.renewTurn('thread-a', start + TURN_LEASE_MS - 1_000);
    expect(await stub.acquireTurn('thread-b', 'sub:b', start + TURN_LEASE_MS + 1)).toMatchObject({ ok: false });
    // No renewal after that: once the lease ends, the slot is free for another thread.
    const expired = start + 2 * TURN_LEASE_MS;
    expect(await stub.acquireTurn('thread-b', 'sub:b', expired)).toMatchObject({ ok: true, fresh: true });
    // A release frees the slot at once.
    await stub.releaseTurn('thread-b');
    expect(await stub.acquireTurn('thread-c', 'sub:c', expired + 1)).toMatchObject({ ok: true, fresh: true });
  });
});

describe('spend quotas (IDN-6)', () => {
  it('a call that would pass the daily token quota is not made: the turn ends quota_exceeded, no half message', async () => {
    const acme = newTenant('acme');
    const alice = await keyIn(acme);
    // The first call reports 1000 tokens; the second's request alone would pass 1005.
    expect((await setLimits(acme, { principal: { tokensPerDay: 1005 } })).status).toBe(200);
    const id = await newThread(alice);
    const stream = await openStream(id, undefined, alice);
    const marker = crypto.randomUUID();
    const script = countedScript(
      [
        {
          toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }],
          usage: { promptTokens: 1000, completionTokens: 0 },
        },
        { text: 'never said' },
      ],
      marker,
    );
    expect((await post(id, alice, script)).status).toBe(202);
    await until(
      () => thread(id, alice),
      (view) => view.status !== 'running' && view.last_error !== null,
    );
    expect(modelCalls(marker)).toBe(1);
    const stored = await log(id, alice);
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(stored.some((message) => message.role === 'assistant' && message.content === 'never said')).toBe(false);
    await until(
      async () => stream.frames,
      (frames) => frames.some((frame) => frame.type === 'status' && frame.status === 'idle'),
    );
    expect(stream.frames.find((frame) => frame.type === 'error')).toMatchObject({ code: 'quota_exceeded' });
    expect(stream.frames.some((frame) => frame.type === 'message_delta' && frame.delta.includes('never'))).toBe(false);
    stream.close();
    // Another tenant's threads still call their model.
    const globex = newTenant('globex');
    const carol = await keyIn(globex);
    const other = await newThread(carol);
    expect((await post(other, carol, 'hello')).status).toBe(202);
    expect((await settled(other, carol)).at(-1)).toMatchObject({ role: 'assistant', content: 'echo: hello' });
  });
});

describe("the tenant's object, by its clock", () => {
  /** A fresh tenant's object with `limits` set. */
  async function tenantObject(limits: Record<string, unknown>) {
    const tenant = newTenant('object');
    const stub = env.TENANTS?.get(env.TENANTS.idFromName(tenant));
    if (!stub) throw new Error('the test Worker binds TENANTS');
    await stub.setLimits(tenant, { tenant: {}, principal: {}, ...limits });
    return stub;
  }

  it('IDN-6: calls under way hold their estimates, so two at once cannot pass the quota together', async () => {
    const stub = await tenantObject({ tenant: { costPerDay: 1 } });
    const now = Date.UTC(2026, 0, 1, 12);
    const [first, second] = await Promise.all([
      stub.holdSpend('sub:a', { tokens: 10, cost: 0.6 }, now),
      stub.holdSpend('sub:b', { tokens: 10, cost: 0.6 }, now),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    const held = first.ok ? first : second;
    if (!held.ok) throw new Error('one call holds');
    // The call spent less than it held: the rest is free again.
    await stub.settleSpend(held.hold, 'sub:a', { tokens: 10, cost: 0.3 }, now);
    const again = await stub.holdSpend('sub:b', { tokens: 10, cost: 0.6 }, now);
    if (!again.ok) throw new Error('0.3 + 0.6 fits in 1');
    expect(await stub.holdSpend('sub:c', { tokens: 10, cost: 0.6 }, now)).toMatchObject({ ok: false });
    // A call that failed spends nothing: its hold goes, and another call fits.
    await stub.settleSpend(again.hold, 'sub:b', null, now);
    expect(await stub.holdSpend('sub:c', { tokens: 10, cost: 0.6 }, now)).toMatchObject({ ok: true });
  });

  it('IDN-6: a day is UTC: the quota used up at 23:59 is whole again at 00:00', async () => {
    const stub = await tenantObject({ principal: { tokensPerDay: 100 } });
    const evening = Date.UTC(2026, 0, 1, 23, 59);
    const held = await stub.holdSpend('sub:a', { tokens: 50, cost: 0 }, evening);
    if (!held.ok) throw new Error('the first call fits');
    await stub.settleSpend(held.hold, 'sub:a', { tokens: 100, cost: 0 }, evening);
    const refused = await stub.holdSpend('sub:a', { tokens: 1, cost: 0 }, evening + 1_000);
    expect(refused).toMatchObject({ ok: false, code: 'quota_exceeded' });
    if (refused.ok) throw new Error('refused');
    expect(refused.message).toContain('daily quota of 100 model tokens');
    // Another principal of the tenant has its own quota.
    expect(await stub.holdSpend('sub:b', { tokens: 1, cost: 0 }, evening + 1_000)).toMatchObject({ ok: true });
    expect(await stub.holdSpend('sub:a', { tokens: 1, cost: 0 }, Date.UTC(2026, 0, 2))).toMatchObject({ ok: true });
  });

  it('IDN-5: the window slides: a request is admitted again exactly when the oldest counted one is a minute old', async () => {
    const stub = await tenantObject({ principal: { requestsPerMinute: 2 } });
    const start = 5_000_000;
    expect(await stub.admit('request', 'sub:a', start)).toMatchObject({ ok: true });
    expect(await stub.admit('request', 'sub:a', start + 30_000)).toMatchObject({ ok: true });
    expect(await stub.admit('request', 'sub:a', start + 59_999)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
    expect(await stub.admit('request', 'sub:a', start + 60_000)).toMatchObject({ ok: true });
    expect(await stub.admit('request', 'sub:a', start + 60_001)).toMatchObject({ ok: false, retryAfterSeconds: 30 });
  });
});

describe('GET and PUT /api/limits', () => {
  it('admins only; an admin of one tenant cannot touch another; a change is audited; bad settings change nothing', async () => {
    const acme = newTenant('acme');
    const globex = newTenant('globex');
    const [member, admin] = [await keyIn(acme, 'member'), await keyIn(acme, 'admin')];
    expect((await call('/api/limits', member)).status).toBe(403);
    expect((await setLimits(acme, { tenant: { requestsPerMinute: 1 } }, member)).status).toBe(403);
    expect((await setLimits(globex, { tenant: { requestsPerMinute: 1 } }, admin)).status).toBe(403);
    const set = await call('/api/limits', admin, { method: 'PUT', json: { principal: { costPerDay: 2.5 } } });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ tenant: acme, override: { principal: { costPerDay: 2.5 } } });
    for (const settings of HOSTILE_LIMIT_SETTINGS) {
      const refused = await call('/api/limits', admin, { method: 'PUT', json: settings });
      expect(refused.status, JSON.stringify(settings)).toBe(400);
    }
    const view = (await (await call('/api/limits', admin)).json()) as { effective: unknown };
    expect(view.effective).toEqual({ tenant: {}, principal: { costPerDay: 2.5 } });
    const audit = (await (await call(`/api/audit?tenant=${acme}`, ADMIN_KEY)).json()) as {
      entries: { action: string; detail: unknown }[];
    };
    expect(audit.entries.filter((entry) => entry.action === 'limits.changed')).toEqual([
      expect.objectContaining({ detail: { before: null, after: { tenant: {}, principal: { costPerDay: 2.5 } } } }),
    ]);
    // The other tenant's limits were never set.
    const other = (await (await call(`/api/limits?tenant=${globex}`, ADMIN_KEY)).json()) as { override: unknown };
    expect(other.override).toBeNull();
  });
});
