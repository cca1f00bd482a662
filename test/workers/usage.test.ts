/**
 * Cost by who spent it through HTTP, in workerd (USE-1..5): users of a fresh tenant (keys issued by
 * the bootstrap admin) run turns on priced scripted models; `GET /api/usage` sums exactly what the
 * threads themselves counted, an admin sees the tenant and a member only itself, bad queries are 400
 * `invalid_usage_query`, and a report repeated after a restart, or refused by D1, counts each step
 * once. Reports are written after the turn, off its path, so the tests poll the report until it has
 * the steps; nothing here sleeps.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../client/index.js';
import { ALICE, api, BOB, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { HOSTILE_USAGE_QUERIES } from '../support/hostile-corpus.js';
import { ADMIN_KEY, call } from '../support/worker-calls.js';

interface Numbers {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  cost_usd: number;
  steps: number;
}

type Row = Numbers & { user?: string; agent?: string; model?: string; day?: string; tenant?: string };

interface Report {
  from: string;
  to: string;
  group_by: string[];
  rows: Row[];
  totals: Numbers;
}

interface ThreadUsage {
  usage: { thread: Numbers & { unpriced_steps: number } };
}

const worker = (exports as unknown as { default: Fetcher }).default;
const today = new Date().toISOString().slice(0, 10);
const daysFrom = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function newTenant(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A key of `tenant` and the subject it acts as. */
async function keyIn(tenant: string, role: string): Promise<{ key: string; subject: string }> {
  const response = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role } });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { key: string; subject: string };
}

async function usage(key: string, query: string): Promise<Report> {
  const response = await call(`/api/usage?${query}`, key);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Report;
}

/** Two steps: a call of echo, then an answer, each with the tokens given. */
function twoSteps(input: number, output: number): string {
  const usage = { promptTokens: input, completionTokens: output };
  return directive([
    { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }], usage },
    { text: 'done', usage },
  ]);
}

/** A thread of `agent` started by `key` with one turn of `content`, settled. */
async function runTurn(key: string, agent: string, content: string, id?: string): Promise<string> {
  let thread = id;
  if (!thread) {
    const created = await api('/api/threads', { method: 'POST', json: { agent }, key });
    expect(created.status, await created.clone().text()).toBe(201);
    thread = ((await created.json()) as { id: string }).id;
  }
  const posted = await api(`/api/threads/${thread}/messages`, { method: 'POST', json: { content }, key });
  expect(posted.status, await posted.clone().text()).toBe(202);
  const log = await settled(thread, key);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  return thread;
}

async function threadUsage(id: string, key: string): Promise<Numbers> {
  const view = (await (await api(`/api/threads/${id}`, { key })).json()) as ThreadUsage;
  const { unpriced_steps: _, ...numbers } = view.usage.thread;
  return numbers;
}

function sum(all: Numbers[]): Numbers {
  const total: Numbers = {
    input_tokens: 0,
    output_tokens: 0,
    cached_tokens: 0,
    total_tokens: 0,
    cost_usd: 0,
    steps: 0,
  };
  for (const numbers of all) {
    for (const key of Object.keys(total) as (keyof Numbers)[]) total[key] += numbers[key];
  }
  return total;
}

function expectSame(actual: Numbers, expected: Numbers): void {
  const { cost_usd: cost, ...tokens } = actual;
  const { cost_usd: expectedCost, ...expectedTokens } = expected;
  expect(tokens).toEqual(expectedTokens);
  expect(cost).toBeCloseTo(expectedCost, 12);
}

/** Polls the report until it counts `steps` steps. */
function reported(key: string, query: string, steps: number): Promise<Report> {
  return until(
    () => usage(key, query),
    (report) => report.totals.steps >= steps,
  );
}

/** The client library, signed in with `key`, speaking to the Worker under test. */
function clientOf(key: string) {
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => worker.fetch(new Request(input, init));
  return createClient({ baseUrl: 'https://runtime.test', apiKey: key, fetch });
}

const stub = (id: string) => env.THREADS.get(env.THREADS.idFromName(id));

describe('GET /api/usage (USE-1, USE-4)', () => {
  it('sums exactly what the threads counted, by user, agent and model; an admin sees both users, a member itself', async () => {
    const tenant = newTenant('usage');
    const [alice, bob, admin] = [
      await keyIn(tenant, 'member'),
      await keyIn(tenant, 'member'),
      await keyIn(tenant, 'admin'),
    ];
    const threads = [
      { key: alice, id: await runTurn(alice.key, 'limits', twoSteps(1000, 500)) },
      { key: alice, id: await runTurn(alice.key, 'budgeted', twoSteps(300, 40)) },
      { key: bob, id: await runTurn(bob.key, 'budgeted', twoSteps(2000, 100)) },
    ];
    const own = await Promise.all(threads.map((thread) => threadUsage(thread.id, thread.key.key)));
    expect(own.map((numbers) => numbers.steps)).toEqual([2, 2, 2]);

    const all = await reported(admin.key, 'group_by=user,agent,model', 6);
    expect(all.group_by).toEqual(['user', 'agent', 'model']);
    expect(all).toMatchObject({ from: daysFrom(today, -29), to: today });
    expectSame(all.totals, sum(own));
    // One row per user, agent and model, each the sum of its thread, dearest first.
    expect(all.rows.map((row) => [row.user, row.agent, row.model])).toEqual([
      [bob.subject, 'budgeted', 'priced'],
      [alice.subject, 'budgeted', 'priced'],
      [alice.subject, 'limits', 'counted'],
    ]);
    for (const [row, numbers] of [
      [all.rows[0], own[2]],
      [all.rows[1], own[1]],
      [all.rows[2], own[0]],
    ] as const) {
      const { user: _u, agent: _a, model: _m, ...sums } = row as Row;
      expectSame(sums, numbers as Numbers);
    }

    // A member sees its own steps only, whatever it groups by.
    const mine = await usage(alice.key, 'group_by=user,agent,model');
    expect(new Set(mine.rows.map((row) => row.user))).toEqual(new Set([alice.subject]));
    expectSame(mine.totals, sum(own.slice(0, 2)));
    const bobs = await usage(bob.key, 'group_by=day');
    expect(bobs.rows).toHaveLength(1);
    expect(bobs.rows[0]?.day).toBe(today);
    expectSame(bobs.totals, own[2] as Numbers);
    // Without group_by: one row, the totals.
    const plain = await usage(admin.key, '');
    expect(plain.rows).toHaveLength(1);
    expectSame(plain.totals, sum(own));
    // A range that leaves today out has nothing.
    const before = await usage(admin.key, `from=${daysFrom(today, -10)}&to=${daysFrom(today, -1)}`);
    expect(before.rows).toEqual([]);
    expect(before.totals.steps).toBe(0);
  });

  it('another tenant sees none of it; only the bootstrap admin key groups by tenant or names another tenant', async () => {
    const [acme, globex] = [newTenant('acme'), newTenant('globex')];
    const [alice, carol, globexAdmin] = [
      await keyIn(acme, 'member'),
      await keyIn(globex, 'member'),
      await keyIn(globex, 'admin'),
    ];
    const acmeThread = await runTurn(alice.key, 'budgeted', twoSteps(100, 10));
    const globexThread = await runTurn(carol.key, 'budgeted', twoSteps(700, 70));
    await reported(ADMIN_KEY, `tenant=${acme}`, 2);
    await reported(ADMIN_KEY, `tenant=${globex}`, 2);

    const theirs = await usage(globexAdmin.key, 'group_by=user');
    expect(theirs.rows.map((row) => row.user)).toEqual([carol.subject]);
    expectSame(theirs.totals, await threadUsage(globexThread, carol.key));
    const named = await call(`/api/usage?tenant=${acme}`, globexAdmin.key);
    expect(named.status).toBe(403);
    const grouped = await call('/api/usage?group_by=tenant', globexAdmin.key);
    expect(grouped.status).toBe(400);
    expect(((await grouped.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'invalid_usage_query',
      message: expect.stringContaining('group_by'),
    });

    const byTenant = await usage(ADMIN_KEY, 'group_by=tenant');
    const rowOf = (tenant: string) => byTenant.rows.find((row) => row.tenant === tenant) as Row;
    expect(rowOf(acme).steps).toBe(2);
    expectSame({ ...rowOf(globex), tenant: undefined } as unknown as Numbers, {
      ...(await threadUsage(globexThread, carol.key)),
    });
    expect((await threadUsage(acmeThread, alice.key)).steps).toBe(2);
  });

  it("keys of the Worker's settings are users of the default tenant: each sees only its own", async () => {
    const thread = await runTurn(ALICE, 'budgeted', twoSteps(50, 5));
    const numbers = await threadUsage(thread, ALICE);
    const report = (await (await api('/api/usage?group_by=user,agent', { key: ALICE })).json()) as Report;
    const bobs = (await (await api('/api/usage?group_by=user', { key: BOB })).json()) as Report;
    expect(report.rows.length).toBeGreaterThan(0);
    expect(new Set(report.rows.map((row) => row.user)).size).toBe(1);
    expect(bobs.rows.every((row) => row.user !== report.rows[0]?.user)).toBe(true);
    await until(
      async () => (await (await api('/api/usage?group_by=agent', { key: ALICE })).json()) as Report,
      (now) => (now.rows.find((row) => row.agent === 'budgeted')?.steps ?? 0) >= numbers.steps,
    );
  });
});

describe('client.usage.get', () => {
  it('asks with groupBy, from and to, and reads a refusal as ApiError invalid_usage_query', async () => {
    const tenant = newTenant('client');
    const [fay, admin] = [await keyIn(tenant, 'member'), await keyIn(tenant, 'admin')];
    const id = await runTurn(fay.key, 'budgeted', twoSteps(120, 12));
    await reported(admin.key, 'group_by=user', 2);
    const report = await clientOf(admin.key).usage.get({ groupBy: ['user', 'model'], from: today, to: today });
    expect(report).toMatchObject({ from: today, to: today, group_by: ['user', 'model'] });
    expect(report.rows).toMatchObject([{ user: fay.subject, model: 'priced', steps: 2 }]);
    expectSame(report.totals, await threadUsage(id, fay.key));
    const refused = await clientOf(fay.key)
      .usage.get({ groupBy: ['tenant'] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_usage_query' });
  });
});

describe('bad queries (USE-5)', () => {
  it.each(HOSTILE_USAGE_QUERIES)('$query is 400 invalid_usage_query naming $field', async ({ query, field }) => {
    const response = await api(`/api/usage?${query}`);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_usage_query');
    expect(error.message).toContain(field);
  });

  it('a range of exactly 366 days is accepted, and from alone ends today', async () => {
    const full = await api(`/api/usage?from=${daysFrom(today, -365)}&to=${today}`);
    expect(full.status).toBe(200);
    const fromOnly = (await (await api(`/api/usage?from=${daysFrom(today, -3)}`)).json()) as Report;
    expect(fromOnly).toMatchObject({ from: daysFrom(today, -3), to: today, group_by: [] });
  });
});

describe('each step counted once (USE-2, USE-3)', () => {
  /**
   * A turn reported, then `beforeEviction` inside the object, an eviction and a second turn: the
   * report of both turns' four steps, and the thread's own count.
   */
  async function reportedAcrossEviction(name: string, beforeEviction?: (object: unknown) => void) {
    const tenant = newTenant(name);
    const [member, admin] = [await keyIn(tenant, 'member'), await keyIn(tenant, 'admin')];
    const id = await runTurn(member.key, 'limits', twoSteps(1000, 500));
    await reported(admin.key, 'group_by=user', 2);
    if (beforeEviction) await runInDurableObject(stub(id), beforeEviction);
    await evictDurableObject(stub(id));
    await runTurn(member.key, 'limits', twoSteps(400, 20), id);
    const own = await threadUsage(id, member.key);
    expect(own.steps).toBe(4);
    const report = await reported(admin.key, 'group_by=user', 4);
    expectSame(report.totals, own);
    return report;
  }

  it('a report sent again after a restart between the D1 write and its marker counts nothing twice', async () => {
    // As if the object died after D1 took the steps and before it kept the marker: the marker is
    // put back, and the restarted object's next report sends every step again.
    const report = await reportedAcrossEviction('replay', (instance) => {
      const object = instance as { metaTable: { set(key: string, value: unknown): void } };
      object.metaTable.set('usage_reported_seq', 0);
    });
    expect(report.rows).toHaveLength(1);
  });

  it('a report whose marker was not yet written (it waits for the next write of the thread) is sent again after an eviction, counted once', async () => {
    await reportedAcrossEviction('unwritten');
  });

  it('a report D1 refuses is logged, and sent with the next turn: nothing lost', async () => {
    const tenant = newTenant('refused');
    const [erin, admin] = [await keyIn(tenant, 'member'), await keyIn(tenant, 'admin')];
    const id = await runTurn(erin.key, 'budgeted', twoSteps(10, 1));
    await reported(admin.key, 'group_by=user', 2);
    // The instance's D1 usage index refuses its next write.
    const refusals: string[] = [];
    await runInDurableObject(stub(id), (instance: unknown) => {
      const reports = (instance as { usageReports: { deps: { index: { record: () => Promise<void> } } } }).usageReports;
      reports.deps.index.record = () => {
        refusals.push('refused');
        return Promise.reject(new Error('D1 is unavailable'));
      };
    });
    await runTurn(erin.key, 'budgeted', twoSteps(20, 2), id);
    await until(
      async () => refusals.length,
      (count) => count > 0,
    );
    expect((await usage(admin.key, 'group_by=user')).totals.steps).toBe(2);
    // A new instance (a fresh index) reports the refused turn's steps with the next turn's.
    await evictDurableObject(stub(id));
    await runTurn(erin.key, 'budgeted', twoSteps(30, 3), id);
    const own = await threadUsage(id, erin.key);
    expect(own.steps).toBe(6);
    expectSame((await reported(admin.key, 'group_by=user', 6)).totals, own);
  });
});
