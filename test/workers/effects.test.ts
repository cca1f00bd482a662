/**
 * Effects through the layers a user touches (the Effects chapter, EFF-*): a scripted model calls a
 * tool that schedules effects with `state.scheduleEffect`; the thread's alarm runs them; the API lists
 * and cancels them. Time is moved by making a waiting effect due (its stored due time set to the past)
 * and running the object's alarm, never by waiting.
 */
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../client/index.js';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { EFFECT_ARGS_JSON_CANNOT_HOLD, EFFECT_FLOOD } from '../support/hostile-corpus.js';

interface EffectView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: string;
  scheduled_at: number;
  created_at: number;
  error: string | null;
  attempts: number;
}

const TOKEN = 'effect-secret-0123456789abcdef';
const worker = (exports as unknown as { default: Fetcher }).default;
const client = createClient({
  baseUrl: 'https://runtime.test',
  apiKey: ALICE,
  fetch: (input, init) => worker.fetch(new Request(input, init)),
});

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

function scheduleCall(name: string, args: Record<string, unknown>, delay?: number, bad?: string) {
  return { name: 'schedule_effect', arguments: { name, args_json: JSON.stringify(args), delay, bad } };
}

/** A thread of the effects agent whose model makes `calls`, one step, then answers. */
async function threadCalling(calls: ReturnType<typeof scheduleCall>[]): Promise<{ id: string; results: string[] }> {
  const id = await createThread({
    agent: 'effects',
    variables: { EFFECT_TOKEN: TOKEN },
    messages: [{ content: directive([{ toolCalls: calls }, { text: 'scheduled' }]) }],
  });
  const log = await settled(id);
  return { id, results: log.filter((m) => m.role === 'tool').map((m) => String(m.content)) };
}

async function effectsOf(id: string, key?: string): Promise<EffectView[]> {
  const response = await api(`/api/threads/${id}/effects`, { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { effects: EffectView[] }).effects;
}

/** Time passes for the thread's waiting effects: each becomes due, and the alarm runs. */
async function makeDueAndRun(id: string): Promise<void> {
  const stub = stubFor(id);
  await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
    state.storage.sql.exec(`UPDATE effects SET due_at = ? WHERE status = 'pending'`, Date.now() - 1);
  });
  await runDurableObjectAlarm(stub);
}

async function storedValue(id: string, key: string): Promise<unknown> {
  return runInDurableObject(stubFor(id), (_instance: unknown, state: DurableObjectState) => {
    const row = state.storage.sql
      .exec<{ value: string }>('SELECT value FROM kv WHERE key = ?', `user:${key}`)
      .toArray();
    return row[0] ? JSON.parse(row[0].value) : undefined;
  });
}

describe('effects', () => {
  it('EFF-4, EFF-5: a scheduled effect waits for its delay, then runs from the alarm with its arguments as given; its queued message wakes the loop', async () => {
    const args = { note: 'héllo "quoted"', count: 3, tags: ['a', 'b'], nested: { ok: true } };
    const before = Date.now();
    const { id, results } = await threadCalling([scheduleCall('record_args', args, 60_000)]);
    const [listed] = await effectsOf(id);
    expect(listed).toMatchObject({ id: results[0], name: 'record_args', args, status: 'pending', attempts: 0 });
    expect(listed?.scheduled_at).toBeGreaterThanOrEqual(before + 60_000);
    // The alarm is left at the effect's due time, for nothing else is due before it.
    const alarm = await runInDurableObject(stubFor(id), (_i: unknown, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(listed?.scheduled_at);
    expect((await messages(id)).some((m) => String(m.content).startsWith('effect ran'))).toBe(false);

    await makeDueAndRun(id);
    const log = await until(
      () => messages(id),
      (list) => list.at(-1)?.role === 'assistant' && String(list.at(-1)?.content).startsWith('echo: effect ran'),
    );
    expect(log.find((m) => m.role === 'user' && String(m.content).startsWith('effect ran'))?.content).toBe(
      `effect ran with ${JSON.stringify(args)}`,
    );
    const [done] = await effectsOf(id);
    expect(done).toMatchObject({ id: results[0], status: 'completed', error: null, attempts: 1 });
    // TRACE-1: the run is a span of its own, kept with the thread's others.
    const spans = (await (await api(`/api/threads/${id}/spans`)).json()) as {
      spans: { name: string; status: string; attributes: Record<string, unknown> }[];
    };
    const run = spans.spans.find((span) => span.name === 'effect record_args');
    expect(run).toMatchObject({ status: 'ok', attributes: { 'standard_agents.effect.id': results[0] } });
  });

  it('EFF-4: an effect due at once runs after the turn that scheduled it, never inside it', async () => {
    const { id, results } = await threadCalling([
      scheduleCall('ping', {}),
      { name: 'list_effects', arguments: {} } as unknown as ReturnType<typeof scheduleCall>,
    ]);
    // The second call of the same turn still saw it waiting.
    const seen = JSON.parse(results[1] as string) as Array<{ id: string; scheduledAt: number; createdAt: number }>;
    expect(seen.map((entry) => entry.id)).toEqual([results[0]]);
    // The specification's timestamps are microseconds.
    expect(seen[0]?.createdAt).toBeGreaterThan(Date.now() * 100);
    await until(
      () => effectsOf(id),
      (list) => list[0]?.status === 'completed',
    );
    expect(await storedValue(id, 'pings')).toBe(1);
  });

  it('EFF-4: an effect due when a turn hands the thread to another agent runs between the two turns, before the next starts', async () => {
    const id = await createThread({
      agent: 'effects',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'ping_then_handoff', arguments: {} }] },
            { toolCalls: [{ name: 'read_pings', arguments: {} }] },
            { text: 'read' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(log.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['handed off', 'pings: 1']);
  });

  it('EFF-3: a packed name reaches the package effect, apart from the application effect of the same short name', async () => {
    const { id } = await threadCalling([scheduleCall('acme/ping', {})]);
    await until(
      () => effectsOf(id),
      (list) => list[0]?.status === 'completed',
    );
    expect(await storedValue(id, 'acme_pings')).toBe(1);
    expect(await storedValue(id, 'pings')).toBeUndefined();
  });

  it('EFF-4: a thread endpoint schedules an effect outside any turn; the alarm runs it', async () => {
    const id = await createThread({ agent: 'effects' });
    const response = await api(`/api/threads/${id}/effects/ping`, { method: 'POST', json: {} });
    expect(response.status).toBe(200);
    const { id: effectId } = (await response.json()) as { id: string };
    const [done] = await until(
      () => effectsOf(id),
      (list) => list[0]?.status === 'completed',
    );
    expect(done?.id).toBe(effectId);
    expect(await storedValue(id, 'pings')).toBe(1);
    // The alarm kept while it ran is given back: nothing wakes the idle thread again for nothing.
    const alarm = await runInDurableObject(stubFor(id), (_i: unknown, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBeNull();
  });

  it('EFF-5: an unknown effect, arguments JSON cannot hold and arguments the schema refuses are rejected when scheduling; nothing is stored', async () => {
    const { id, results } = await threadCalling([
      scheduleCall('no_such_effect', {}),
      scheduleCall('record_args', { note: 1 }),
      scheduleCall('ping', {}, -5),
      ...EFFECT_ARGS_JSON_CANNOT_HOLD.map((entry) => scheduleCall('ping', {}, 0, entry.bad)),
    ]);
    expect(results[0]).toContain('unknown effect "no_such_effect"');
    expect(results[1]).toContain('effect "record_args": invalid arguments');
    expect(results[2]).toContain('the delay must be a number of milliseconds');
    EFFECT_ARGS_JSON_CANNOT_HOLD.forEach((entry, index) => {
      expect(results[3 + index], entry.bad).toContain(entry.reason);
    });
    expect(await effectsOf(id)).toEqual([]);
  });

  it('EFF-5: a tool scheduling effects in a loop is refused past the cap of waiting effects; those before it stay, nothing else changes', async () => {
    const id = await createThread({
      agent: 'effects',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'flood_effects', arguments: { times: EFFECT_FLOOD } }] },
            { text: 'done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toBe(
      'refused after 1000: this thread already has 1000 effects waiting to run',
    );
    const listed = await effectsOf(id);
    expect(listed).toHaveLength(1000);
    expect(listed.every((effect) => effect.status === 'pending')).toBe(true);
  });

  it('EFF-6: an effect listed through the API and cancelled there never runs; cancelling again is 409, an unknown id 404, another user 404', async () => {
    const { id, results } = await threadCalling([scheduleCall('ping', {}, 60_000)]);
    const effectId = results[0] as string;
    expect((await api(`/api/threads/${id}/effects`, { key: BOB })).status).toBe(404);
    expect((await api(`/api/threads/${id}/effects/${effectId}`, { method: 'DELETE', key: BOB })).status).toBe(404);
    const cancelled = await api(`/api/threads/${id}/effects/${effectId}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ id: effectId, status: 'cancelled' });
    const again = await api(`/api/threads/${id}/effects/${effectId}`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('effect_not_pending');
    const unknown = await api(`/api/threads/${id}/effects/not-an-effect`, { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('effect_not_found');
    await makeDueAndRun(id);
    expect(await storedValue(id, 'pings')).toBeUndefined();
    expect((await effectsOf(id)).map((effect) => effect.status)).toEqual(['cancelled']);
  });

  it('EFF-6: the client lists a thread effects and cancels one; cancelling it again throws ApiError 409', async () => {
    const { id, results } = await threadCalling([scheduleCall('ping', {}, 60_000)]);
    const listed = await client.effects.list(id);
    expect(listed.effects.map((effect) => [effect.id, effect.status])).toEqual([[results[0], 'pending']]);
    expect(await client.effects.cancel(id, results[0] as string)).toMatchObject({ status: 'cancelled' });
    const again = await client.effects.cancel(id, results[0] as string).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).status).toBe(409);
  });

  it('EFF-6: getScheduledEffects lists waiting effects by due time and by name; removeScheduledEffect answers false once cancelled', async () => {
    const { id, results } = await threadCalling([
      scheduleCall('ping', {}, 90_000),
      scheduleCall('record_args', { note: 'n', count: 1, tags: [], nested: { ok: false } }, 30_000),
    ]);
    const ping = results[0] as string;
    const record = results[1] as string;
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          {
            toolCalls: [
              { name: 'list_effects', arguments: {} },
              { name: 'list_effects', arguments: { name: 'ping' } },
              { name: 'remove_effect', arguments: { id: ping } },
              { name: 'remove_effect', arguments: { id: ping } },
              { name: 'remove_effect', arguments: { id: 'unknown' } },
            ],
          },
          { text: 'listed' },
        ]),
      },
    });
    const log = await until(
      () => settled(id),
      (list) => list.at(-1)?.content === 'listed',
    );
    const outputs = log.filter((m) => m.role === 'tool').map((m) => String(m.content));
    // The first two are the scheduling calls of the first turn.
    const all = JSON.parse(outputs[2] as string) as Array<{ id: string }>;
    expect(all.map((entry) => entry.id)).toEqual([record, ping]);
    expect((JSON.parse(outputs[3] as string) as Array<{ id: string }>).map((entry) => entry.id)).toEqual([ping]);
    expect(outputs.slice(4)).toEqual(['true', 'false', 'false']);
  });

  it('EFF-8: a failing effect is recorded with its error scrubbed of secrets; the thread carries on unharmed', async () => {
    const { id } = await threadCalling([scheduleCall('explode', {})]);
    const [failed] = await until(
      () => effectsOf(id),
      (list) => list[0]?.status === 'failed',
    );
    expect(failed?.error).toContain('exploded holding');
    expect(failed?.error).not.toContain(TOKEN);
    expect((await thread(id)).status).not.toBe('failed');
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'still there?' } });
    const log = await until(
      () => messages(id),
      (list) => list.at(-1)?.content === 'echo: still there?',
    );
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });

  it('EFF-8: an effect running past its timeout is stopped and recorded as failed', async () => {
    const { id } = await threadCalling([scheduleCall('sleepy', {})]);
    const [failed] = await until(
      () => effectsOf(id),
      (list) => list[0]?.status === 'failed',
    );
    expect(failed?.error).toContain('timed out after 50 ms');
  });

  it('EFF-7: after a crash mid-run, an idempotent effect runs again and one that is not is failed as interrupted', async () => {
    const { id } = await threadCalling([scheduleCall('block_forever', {}), scheduleCall('block_once', {})]);
    await until(
      () => effectsOf(id),
      (list) => list.some((effect) => effect.name === 'block_forever' && effect.status === 'running'),
    );
    // Torn down mid-handler, as a crash or a deploy would; the effect's safety alarm brings it back.
    await abortAllDurableObjects();
    // This alarm runs block_once, which blocks: it is not awaited (it never settles), the next crash ends it.
    void runDurableObjectAlarm(stubFor(id)).catch(() => true);
    await until(
      () => effectsOf(id),
      (list) => list.some((effect) => effect.name === 'block_once' && effect.status === 'running'),
    );
    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(stubFor(id))).toBe(true);
    const list = await until(
      () => effectsOf(id),
      (all) => all.every((effect) => effect.status === 'failed' || effect.status === 'completed'),
    );
    const byName = Object.fromEntries(list.map((effect) => [effect.name, effect]));
    expect(byName.block_forever).toMatchObject({ status: 'failed', attempts: 1 });
    expect(byName.block_forever?.error).toContain('interrupted');
    expect(byName.block_once).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('EFF-10: a waiting effect survives the eviction of its object and runs in the new one; deleting the thread removes it', async () => {
    const { id } = await threadCalling([scheduleCall('ping', {}, 60_000)]);
    await evictDurableObject(stubFor(id));
    expect((await effectsOf(id)).map((effect) => effect.status)).toEqual(['pending']);
    await makeDueAndRun(id);
    expect(await storedValue(id, 'pings')).toBe(1);

    const second = await threadCalling([scheduleCall('ping', {}, 60_000)]);
    expect((await api(`/api/threads/${second.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/threads/${second.id}/effects`)).status).toBe(404);
    const left = await runInDurableObject(stubFor(second.id), async (_i: unknown, state: DurableObjectState) => ({
      alarm: await state.storage.getAlarm(),
      tables: state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'effects'").toArray().length,
    }));
    expect(left).toEqual({ alarm: null, tables: 0 });
  });

  it('EFF-9: every request of an effect passes the egress policy, by state.fetch and by the global fetch', async () => {
    const url = 'http://169.254.169.254/latest/meta-data/';
    const { id } = await threadCalling([
      scheduleCall('fetch_url', { url, via: 'state' }),
      scheduleCall('fetch_url', { url, via: 'global' }),
    ]);
    const list = await until(
      () => effectsOf(id),
      (all) => all.length === 2 && all.every((effect) => effect.status === 'failed' || effect.status === 'completed'),
    );
    for (const effect of list) {
      expect(effect.status, String(effect.args.via)).toBe('failed');
      expect(effect.error, String(effect.args.via)).toMatch(/EgressRefused: .*cloud metadata/);
    }
    expect(await storedValue(id, 'fetched')).toBeUndefined();
  });

  it("EFF-9: an effect is held to the thread's permission rules: a denied write is refused and recorded, an allowed one goes ahead", async () => {
    const { id } = await threadCalling([
      scheduleCall('write_file', { path: '/forbidden/x.txt' }),
      scheduleCall('write_file', { path: '/notes/x.txt' }),
    ]);
    const list = await until(
      () => effectsOf(id),
      (all) => all.every((effect) => effect.status === 'failed' || effect.status === 'completed'),
    );
    const denied = list.find((effect) => effect.args.path === '/forbidden/x.txt');
    expect(denied).toMatchObject({ status: 'failed' });
    expect(denied?.error).toContain('Denied by the manifest rule (fs.write, /forbidden/*, deny)');
    expect(list.find((effect) => effect.args.path === '/notes/x.txt')?.status).toBe('completed');
    expect((await api(`/api/threads/${id}/files/forbidden/x.txt`)).status).toBe(404);
    expect((await api(`/api/threads/${id}/files/notes/x.txt`)).status).toBe(200);
  });
});
