/**
 * Schedules through the HTTP API in workerd: a thread's own schedules, made, listed, paused and
 * deleted, fired from the thread's alarm as messages; an agent's schedules installed in its threads;
 * a tenant's schedules starting threads from the Tenant object's alarm. Time is moved by making a
 * schedule's next tick due (its stored next_at set to the past) and running the object's alarm, or by
 * firing with a given clock inside the object; never by waiting.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { describe, expect, inject, it } from 'vitest';
import { ApiError, createClient } from '../../client/index.js';
import { armSchedules, fireDueSchedules } from '../../src/thread/schedules/index.js';
import { ALICE, api, BOB, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { SCHEDULE_INPUTS_REFUSED } from '../support/hostile-corpus.js';
import { ADMIN_KEY, adminEnv, call } from '../support/worker-calls.js';

interface ScheduleView {
  id: string;
  name: string | null;
  source: string;
  cron: string | null;
  at: number | null;
  timezone: string;
  paused: boolean;
  next_at: number | null;
  last_tick: number | null;
  fired_count: number;
  last_outcome: string | null;
  last_thread_id?: string | null;
}

/** A delivery as the test services' receiver kept it. */
interface Received {
  body: string;
  headers: Record<string, string>;
}

const MINUTE = 60_000;
const worker = (exports as unknown as { default: Fetcher }).default;
const client = createClient({
  baseUrl: 'https://runtime.test',
  apiKey: ALICE,
  fetch: (input, init) => worker.fetch(new Request(input, init)),
});
const HOUR = 60 * MINUTE;

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

function tenantStub(tenant = 'default') {
  const namespace = env.TENANTS as unknown as DurableObjectNamespace;
  return namespace.get(namespace.idFromName(tenant));
}

async function newThread(agent = 'general'): Promise<string> {
  const id = await createThread({ agent, messages: [{ content: 'hello' }] });
  await settled(id);
  return id;
}

async function schedule(id: string, json: Record<string, unknown>, key = ALICE): Promise<Response> {
  return api(`/api/threads/${id}/schedules`, { method: 'POST', json, key });
}

async function made(id: string, json: Record<string, unknown>): Promise<ScheduleView> {
  const response = await schedule(id, json);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ScheduleView;
}

async function schedulesOf(id: string, key = ALICE): Promise<ScheduleView[]> {
  const response = await api(`/api/threads/${id}/schedules`, { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { schedules: ScheduleView[] }).schedules;
}

/** The user messages a schedule posted, by its id. */
async function firedBy(id: string, scheduleId: string) {
  return (await messages(id)).filter((m) => m.role === 'user' && m.metadata?.schedule_id === scheduleId);
}

/** Its next tick is made due `ago` ms ago (all of the thread's, by default). */
async function makeDue(id: string, ago = 1, scheduleId?: string): Promise<void> {
  await runInDurableObject(stubFor(id), (_instance: unknown, state: DurableObjectState) => {
    const where = scheduleId ? 'WHERE id = ?' : '';
    const params = scheduleId ? [scheduleId] : [];
    state.storage.sql.exec(`UPDATE schedules SET next_at = ? ${where}`, Date.now() - ago, ...params);
  });
}

/** Fires the thread's due schedules with the clock at `now`, as its alarm does. */
async function fireAt(id: string, now: number): Promise<void> {
  await runInDurableObject(stubFor(id), async (instance: unknown) => {
    const desk = (instance as { scheduleDesk(): Parameters<typeof fireDueSchedules>[0] }).scheduleDesk();
    await fireDueSchedules(desk, now);
  });
}

describe('thread schedules', () => {
  it('SCHED-1, SCHED-2: a one-off fires on time from the alarm, once: its message carries the schedule and the tick, and starts a turn', async () => {
    const id = await newThread();
    const at = Date.now() + 1_500;
    const created = await made(id, { at, message: 'time to check in', name: 'check-in' });
    expect(created).toMatchObject({ at, next_at: at, source: 'api', fired_count: 0, paused: false });
    // The thread's alarm is set for it.
    const alarm = await runInDurableObject(stubFor(id), (_i: unknown, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBeLessThanOrEqual(at);
    await until(
      async () => Date.now(),
      (now) => now >= at,
    );
    await runDurableObjectAlarm(stubFor(id));
    const log = await until(
      () => messages(id),
      (list) => list.at(-1)?.content === 'echo: time to check in',
    );
    const fired = log.filter((m) => m.metadata?.schedule_id === created.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.metadata).toMatchObject({ schedule_id: created.id, tick: at });
    expect(fired[0]?.created_at).toBeGreaterThanOrEqual(at);
    const [after] = await schedulesOf(id);
    expect(after).toMatchObject({ next_at: null, last_tick: at, fired_count: 1, last_outcome: 'fired' });
    // Another alarm finds nothing due.
    await runDurableObjectAlarm(stubFor(id));
    expect(await firedBy(id, created.id)).toHaveLength(1);
  });

  it('SCHED-3: one tick fires once even when the alarm runs it again: the row keeps the last tick with the stored message', async () => {
    const id = await newThread();
    const { id: scheduleId } = await made(id, { cron: '*/5 * * * *', message: 'every five' });
    await makeDue(id);
    const [due] = await schedulesOf(id);
    await runDurableObjectAlarm(stubFor(id));
    await runDurableObjectAlarm(stubFor(id));
    await until(
      () => firedBy(id, scheduleId),
      (list) => list.length === 1,
    );
    // As a replayed alarm would see it: the next tick put back to the one already fired.
    await runInDurableObject(stubFor(id), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec('UPDATE schedules SET next_at = ?', due?.next_at);
    });
    await fireAt(id, (due?.next_at as number) + 10);
    await fireAt(id, (due?.next_at as number) + 10);
    await runDurableObjectAlarm(stubFor(id));
    await settled(id);
    expect(await firedBy(id, scheduleId)).toHaveLength(1);
    const [after] = await schedulesOf(id);
    expect(after?.fired_count).toBe(1);
    expect(after?.last_tick).toBe(due?.next_at);
    // Its next tick moved past the spent one: the alarm is not set again and again for it.
    expect(after?.next_at).toBeGreaterThan(due?.next_at as number);
  });

  it('SCHED-3: survives eviction: the schedule is read again from SQLite and fires once after it', async () => {
    const id = await newThread();
    const { id: scheduleId } = await made(id, { cron: '0 * * * *', message: 'hourly after eviction' });
    await evictDurableObject(stubFor(id));
    expect((await schedulesOf(id)).map((s) => s.id)).toEqual([scheduleId]);
    await makeDue(id);
    await evictDurableObject(stubFor(id));
    await runDurableObjectAlarm(stubFor(id));
    await until(
      () => firedBy(id, scheduleId),
      (list) => list.length === 1,
    );
    await settled(id);
    await evictDurableObject(stubFor(id));
    await runDurableObjectAlarm(stubFor(id));
    expect(await firedBy(id, scheduleId)).toHaveLength(1);
    const [after] = await schedulesOf(id);
    expect(after?.next_at).toBeGreaterThan(Date.now());
  });

  it('SCHED-1: a paused and a deleted schedule do not fire; a resumed one fires from its next tick after now', async () => {
    const id = await newThread();
    const paused = await made(id, { cron: '0 * * * *', message: 'paused one' });
    const deleted = await made(id, { cron: '0 * * * *', message: 'deleted one' });
    const pause = await api(`/api/threads/${id}/schedules/${paused.id}`, { method: 'PATCH', json: { paused: true } });
    expect(pause.status).toBe(200);
    expect(((await pause.json()) as ScheduleView).paused).toBe(true);
    const removal = await api(`/api/threads/${id}/schedules/${deleted.id}`, { method: 'DELETE' });
    expect(removal.status).toBe(200);
    await makeDue(id, MINUTE * 5);
    await runDurableObjectAlarm(stubFor(id));
    await fireAt(id, Date.now());
    expect(await firedBy(id, paused.id)).toHaveLength(0);
    expect(await firedBy(id, deleted.id)).toHaveLength(0);
    expect((await schedulesOf(id)).map((s) => s.id)).toEqual([paused.id]);
    // Resumed: the ticks slept through are not fired; the next is after now.
    const resume = await api(`/api/threads/${id}/schedules/${paused.id}`, { method: 'PATCH', json: { paused: false } });
    const resumed = (await resume.json()) as ScheduleView;
    expect(resumed.paused).toBe(false);
    expect(resumed.next_at).toBeGreaterThan(Date.now());
    await runDurableObjectAlarm(stubFor(id));
    expect(await firedBy(id, paused.id)).toHaveLength(0);
    // Unknown, and another user's: 404, nothing changed.
    expect((await api(`/api/threads/${id}/schedules/${deleted.id}`, { method: 'DELETE' })).status).toBe(404);
    const bob = await api(`/api/threads/${id}/schedules/${paused.id}`, { method: 'DELETE', key: BOB });
    expect(bob.status).toBe(404);
    expect(await schedulesOf(id)).toHaveLength(1);
  });

  it('SCHED-4: a tick missed while nothing ran fires once (run_once) or is skipped (skip); a backlog fires once, its latest tick', async () => {
    const id = await newThread();
    const once = await made(id, { cron: '0 * * * *', message: 'catch up once' });
    const skip = await made(id, { cron: '0 * * * *', message: 'skip if late', missed: 'skip' });
    const minutely = await made(id, { cron: '* * * * *', message: 'every minute', missed: 'skip' });
    const hour = Math.ceil(Date.now() / HOUR) * HOUR;
    expect(once.next_at).toBe(hour);
    // Nothing ran from the hour's tick until ten minutes past it: the hourly tick is missed, and
    // the minutely schedule's ticks pile up behind its latest, which is on time.
    const now = hour + 10 * MINUTE + 5_000;
    await fireAt(id, now);
    await settled(id);
    const fired = await firedBy(id, once.id);
    expect(fired.map((m) => m.metadata?.tick)).toEqual([hour]);
    expect(await firedBy(id, skip.id)).toHaveLength(0);
    const caughtUp = await firedBy(id, minutely.id);
    expect(caughtUp.map((m) => m.metadata?.tick)).toEqual([hour + 10 * MINUTE]);
    const views = await schedulesOf(id);
    expect(views.find((s) => s.id === skip.id)).toMatchObject({
      last_tick: hour,
      last_outcome: 'skipped: missed',
      fired_count: 0,
      next_at: hour + HOUR,
    });
    expect(views.find((s) => s.id === once.id)).toMatchObject({
      last_tick: hour,
      fired_count: 1,
      next_at: hour + HOUR,
    });
    expect(views.find((s) => s.id === minutely.id)).toMatchObject({ fired_count: 1, next_at: hour + 11 * MINUTE });
    // The same clock again: nothing more.
    await fireAt(id, now);
    expect((await messages(id)).filter((m) => m.metadata?.schedule_id)).toHaveLength(2);
  });

  it('SCHED-5: bad input is refused with 400 and a code naming the field; nothing is stored, other threads unharmed', async () => {
    const id = await newThread();
    const other = await newThread();
    const kept = await made(other, { cron: '0 12 * * *', message: 'noon' });
    for (const { body, code } of SCHEDULE_INPUTS_REFUSED) {
      const response = await schedule(id, { message: 'refused', ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, JSON.stringify(body)).toBe(code);
    }
    expect(await schedulesOf(id)).toEqual([]);
    expect((await schedulesOf(other)).map((s) => s.id)).toEqual([kept.id]);
    // Another user's thread: 404 without a look at the body.
    expect((await schedule(id, { cron: '0 12 * * *', message: 'x' }, BOB)).status).toBe(404);
  });

  it("SCHED-6: an agent's schedules are installed in each new thread of it, read in their time zone by croner on workerd", async () => {
    const id = await createThread({ agent: 'scheduled', messages: [] });
    const views = await schedulesOf(id);
    expect(views.map((s) => [s.name, s.source, s.paused])).toEqual([
      ['morning', 'agent', false],
      ['hourly', 'agent', true],
    ]);
    const morning = views[0]?.next_at as number;
    expect(morning).toBeGreaterThan(Date.now());
    expect(morning - Date.now()).toBeLessThanOrEqual(24 * 3600 * 1000 + 3600 * 1000);
    const paris = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(morning));
    expect(paris).toBe('09:00:00');
    const second = await createThread({ agent: 'scheduled', messages: [] });
    const theirs = await schedulesOf(second);
    expect(theirs.map((s) => s.name)).toEqual(['morning', 'hourly']);
    expect(theirs[0]?.id).not.toBe(views[0]?.id);
  });
});

describe('a schedule meets the thread', () => {
  it("SCHED-2: a tick that finds the thread busy follows the schedule's on_busy: reject leaves nothing and records why", async () => {
    const questions = [{ question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] }];
    const id = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'ok' }]) },
      ],
    });
    await until(
      () => api(`/api/threads/${id}`).then((r) => r.json() as Promise<{ status: string }>),
      (view) => view.status === 'waiting',
    );
    const rejecting = await made(id, { cron: '0 * * * *', message: 'only when idle', on_busy: 'reject' });
    const queueing = await made(id, { cron: '0 * * * *', message: 'whenever' });
    const before = (await messages(id)).length;
    await makeDue(id);
    await runDurableObjectAlarm(stubFor(id));
    const views = await schedulesOf(id);
    expect(views.find((s) => s.id === rejecting.id)).toMatchObject({
      last_outcome: 'refused: thread_busy',
      fired_count: 0,
    });
    expect(views.find((s) => s.id === queueing.id)).toMatchObject({ last_outcome: 'fired', fired_count: 1 });
    // The rejected tick stored nothing; the queued one waits for the answer.
    const log = await messages(id);
    expect(log.length).toBe(before);
    expect(log.some((m) => m.metadata?.schedule_id === rejecting.id)).toBe(false);
  });

  it("SCHED-2: a schedule's turn counts against the owner's running turns: past the limit the tick is refused, nothing stored", async () => {
    const tenant = `sched-${crypto.randomUUID().slice(0, 8)}`;
    const issued = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role: 'member' } }, adminEnv);
    const { key } = (await issued.json()) as { key: string };
    const id = await createThread({ agent: 'general' }, key);
    const limited = await call(`/api/limits?tenant=${tenant}`, ADMIN_KEY, {
      method: 'PUT',
      json: { tenant: { concurrentTurns: 0 } },
    });
    expect(limited.status).toBe(200);
    const response = await schedule(id, { cron: '0 * * * *', message: 'no room for me' }, key);
    const { id: scheduleId } = (await response.json()) as ScheduleView;
    await makeDue(id);
    await runDurableObjectAlarm(stubFor(id));
    const [view] = await schedulesOf(id, key);
    expect(view).toMatchObject({ last_outcome: 'refused: rate_limited', fired_count: 0 });
    expect(await messages(id, '', key)).toEqual([]);
    expect(scheduleId).toBe(view?.id);
  });

  it('SCHED-2: a terminated thread fires none of its schedules, takes no new one, and is not woken for them', async () => {
    const id = await newThread();
    const { id: scheduleId } = await made(id, { cron: '0 * * * *', message: 'after the end' });
    expect((await api(`/api/threads/${id}/terminate`, { method: 'POST' })).status).toBe(200);
    expect((await schedule(id, { cron: '0 * * * *', message: 'too late' })).status).toBe(409);
    await makeDue(id);
    await runDurableObjectAlarm(stubFor(id));
    expect(await firedBy(id, scheduleId)).toEqual([]);
    // Not set again for the tick that will never fire (it would wake the object over and over).
    const alarm = await runInDurableObject(stubFor(id), async (instance: unknown, state: DurableObjectState) => {
      await state.storage.deleteAlarm();
      await armSchedules((instance as { scheduleDesk(): Parameters<typeof armSchedules>[0] }).scheduleDesk());
      return state.storage.getAlarm();
    });
    expect(alarm).toBeNull();
  });

  it('SCHED-8: each message a schedule posts is published as schedule.fired to the webhooks that hear it', async () => {
    const name = crypto.randomUUID();
    const services = String(inject('servicesUrl'));
    const hook = await api('/api/webhooks', {
      method: 'POST',
      json: { url: `${services}/hooks/${name}`, events: ['schedule.fired'] },
    });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const { id: webhookId, secret } = (await hook.json()) as { id: string; secret: string };
    const id = await newThread();
    const { id: scheduleId } = await made(id, { cron: '0 * * * *', message: 'tell the hook' });
    await makeDue(id);
    await runDurableObjectAlarm(stubFor(id));
    const [fired] = await until(
      () => firedBy(id, scheduleId),
      (list) => list.length === 1,
    );
    const [request] = await until(
      async () => (await (await fetch(`${services}/hooks-received/${name}`)).json()) as Received[],
      (list) => list.length >= 1,
    );
    const payload = new Webhook(secret).verify(request?.body as string, request?.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe('schedule.fired');
    expect(payload.data).toEqual({
      thread_id: id,
      schedule_id: scheduleId,
      tick: fired?.metadata?.tick,
      message_id: fired?.id,
    });
    expect((await api(`/api/webhooks/${webhookId}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('the client', () => {
  it("makes, lists, pauses and deletes a thread's and the tenant's schedules; a refusal is an ApiError with its code", async () => {
    const id = await newThread();
    const made = await client.schedules.create(id, {
      cron: '30 7 * * 1-5',
      timezone: 'Asia/Tokyo',
      message: 'standup',
    });
    expect((await client.schedules.list(id)).schedules.map((s) => s.id)).toEqual([made.id]);
    expect((await client.schedules.setPaused(id, made.id, true)).paused).toBe(true);
    expect((await client.schedules.delete(id, made.id)).id).toBe(made.id);
    const refused = await client.schedules.create(id, { cron: '* * * * * *', message: 'too often' }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('invalid_cron');
    const tenant = await client.tenantSchedules.create({
      agent: 'general',
      at: Date.now() + 3_600_000,
      message: 'later',
    });
    expect((await client.tenantSchedules.list()).schedules.map((s) => s.id)).toContain(tenant.id);
    expect((await client.tenantSchedules.setPaused(tenant.id, true)).paused).toBe(true);
    await client.tenantSchedules.delete(tenant.id);
  });
});

describe('tenant schedules', () => {
  async function tenantSchedules(key = ALICE): Promise<ScheduleView[]> {
    const response = await api('/api/schedules', { key });
    expect(response.status).toBe(200);
    return ((await response.json()) as { schedules: ScheduleView[] }).schedules;
  }

  async function fireTenant(scheduleId: string, nextAt: number | null): Promise<void> {
    await runInDurableObject(tenantStub(), async (instance: unknown, state: DurableObjectState) => {
      if (nextAt !== null) {
        state.storage.sql.exec('UPDATE tenant_schedules SET next_at = ? WHERE id = ?', nextAt, scheduleId);
      }
      await (instance as { fireSchedules(now?: number): Promise<void> }).fireSchedules();
    });
  }

  it("SCHED-7: each tick starts one new thread of the agent, owned by the schedule's maker; the same tick never starts two", async () => {
    const response = await api('/api/schedules', {
      method: 'POST',
      json: {
        agent: 'general',
        cron: '0 8 * * 1',
        timezone: 'America/New_York',
        message: 'weekly report',
        tags: ['weekly'],
      },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const created = (await response.json()) as ScheduleView;
    expect(created).toMatchObject({ timezone: 'America/New_York', fired_count: 0, last_thread_id: null });
    expect((await tenantSchedules(BOB)).map((s) => s.id)).not.toContain(created.id);
    const tick = Date.now() - 1;
    await fireTenant(created.id, tick);
    const [view] = (await tenantSchedules()).filter((s) => s.id === created.id);
    expect(view).toMatchObject({ fired_count: 1, last_tick: tick, last_outcome: 'fired' });
    const threadId = view?.last_thread_id as string;
    const log = await settled(threadId);
    expect(log[0]).toMatchObject({ role: 'user', content: 'weekly report' });
    expect(log[0]?.metadata).toMatchObject({ schedule_id: created.id, tick });
    expect((await api(`/api/threads/${threadId}`, { key: BOB })).status).toBe(404);
    // The same tick again (a replayed alarm): no second thread.
    await fireTenant(created.id, tick);
    const [again] = (await tenantSchedules()).filter((s) => s.id === created.id);
    expect(again).toMatchObject({ fired_count: 1, last_thread_id: threadId });
    // A start recorded but never answered (the object died in between) is asked again, with the same id.
    const pending = crypto.randomUUID();
    await runInDurableObject(tenantStub(), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec(
        'UPDATE tenant_schedules SET last_thread = ?, thread_pending = 1 WHERE id = ?',
        pending,
        created.id,
      );
    });
    await fireTenant(created.id, null);
    await fireTenant(created.id, null);
    const restarted = await settled(pending);
    expect(restarted[0]).toMatchObject({ role: 'user', content: 'weekly report' });
    const removal = await api(`/api/schedules/${created.id}`, { method: 'DELETE' });
    expect(removal.status).toBe(200);
    await fireTenant(created.id, null);
    expect((await tenantSchedules()).map((s) => s.id)).not.toContain(created.id);
  });

  it('SCHED-7: answers 501 not_configured without the TENANTS binding', async () => {
    const bindings = { ...adminEnv, TENANTS: undefined };
    const listed = await call('/api/schedules', ALICE, {}, bindings);
    expect(listed.status).toBe(501);
    expect(await listed.json()).toMatchObject({ error: { code: 'not_configured' } });
    const made = await call(
      '/api/schedules',
      ALICE,
      { method: 'POST', json: { agent: 'general', cron: '0 8 * * *', message: 'x' } },
      bindings,
    );
    expect(made.status).toBe(501);
  });

  it('SCHED-7: refuses an unknown agent and bad timing with 400, and another maker’s schedule is 404', async () => {
    const unknown = await api('/api/schedules', {
      method: 'POST',
      json: { agent: 'nope', cron: '0 8 * * *', message: 'x' },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_agent');
    const zone = await api('/api/schedules', {
      method: 'POST',
      json: { agent: 'general', cron: '0 8 * * *', timezone: 'Mars/Olympus_Mons', message: 'x' },
    });
    expect(((await zone.json()) as { error: { code: string } }).error.code).toBe('invalid_timezone');
    const mine = await api('/api/schedules', {
      method: 'POST',
      json: { agent: 'general', cron: '0 8 * * *', message: 'x' },
    });
    const { id } = (await mine.json()) as ScheduleView;
    const bob = await api(`/api/schedules/${id}`, { method: 'PATCH', json: { paused: true }, key: BOB });
    expect(bob.status).toBe(404);
    const [still] = (await tenantSchedules()).filter((s) => s.id === id);
    expect(still?.paused).toBe(false);
    expect((await api(`/api/schedules/${id}`, { method: 'DELETE' })).status).toBe(200);
  });
});
