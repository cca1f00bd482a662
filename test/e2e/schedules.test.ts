/**
 * Schedules end to end under a real `wrangler dev` (the minimum interval lowered to one second): a
 * thread's schedule fires on its ticks from the thread's alarm, goes on firing after `wrangler dev`
 * is killed and started again on the same state with no request to the Worker (the persisted alarm
 * alone wakes the thread), never fires one tick twice, and stops firing once paused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const KEY = 'schedules-key';
const EVERY_MS = 2_000;

let model: OpenAIServer;
let state: string;
let dev: WranglerDev | undefined;

function start(port?: number) {
  return startWranglerDev({
    persistTo: state,
    ...(port ? { port } : {}),
    vars: {
      API_KEYS: KEY,
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: 'x',
      MODEL: 'fake-model',
      SCHEDULE_MIN_INTERVAL_SECONDS: '1',
    },
  });
}

/** Polls `read` until `check` holds, with a deadline; never a fixed sleep. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ticksOf(log: Message[], scheduleId: string): number[] {
  return log
    .filter((message) => message.role === 'user' && message.metadata?.schedule_id === scheduleId)
    .map((message) => Number(message.metadata?.tick));
}

beforeAll(async () => {
  model = await startOpenAIServer();
  state = await mkdtemp(join(tmpdir(), 'schedules-state-'));
});

afterAll(async () => {
  await dev?.stop();
  await model?.close();
  await rm(state, { recursive: true, force: true });
});

describe('a schedule under wrangler dev', () => {
  it('fires on its ticks, across a kill and restart of the runtime, once per tick, and not once paused', async () => {
    dev = await start();
    const api = new ApiClient(dev.url, KEY);
    const { id } = await api.createThread({ agent: 'assistant' });
    const schedule = await api.json<{ id: string; next_at: number }>(
      `/api/threads/${id}/schedules`,
      { method: 'POST', json: { cron: '*/2 * * * * *', message: 'scheduled ping' } },
      201,
    );
    const before = await until(
      () => api.messages(id),
      (log) => ticksOf(log, schedule.id).length >= 2,
      'two ticks before the restart',
    );
    // On time: each message is stored at or after its tick, on the two-second grid.
    for (const message of before.filter((m) => m.metadata?.schedule_id === schedule.id)) {
      const tick = Number(message.metadata?.tick);
      expect(tick % EVERY_MS).toBe(0);
      expect(message.created_at).toBeGreaterThanOrEqual(tick);
    }

    const requestsBefore = model.requests.length;
    await dev.kill();
    const downAt = Date.now();
    dev = await start(dev.port);
    // No request reaches the Worker until the model has been asked again: the alarm alone fires.
    await until(
      async () => model.requests.length,
      (count) => count > requestsBefore + 1,
      'ticks after the restart',
    );
    const restarted = new ApiClient(dev.url, KEY);
    const log = await until(
      () => restarted.messages(id),
      (list) => ticksOf(list, schedule.id).some((tick) => tick > downAt),
      'a tick after the restart in the log',
    );
    const ticks = ticksOf(log, schedule.id);
    // Once per tick: no tick twice, in order.
    expect(new Set(ticks).size).toBe(ticks.length);
    expect([...ticks].sort((a, b) => a - b)).toEqual(ticks);

    // Paused: a one-off marker set after the pause fires, and the paused schedule has fired nothing newer.
    const paused = await restarted.json<{ paused: boolean }>(`/api/threads/${id}/schedules/${schedule.id}`, {
      method: 'PATCH',
      json: { paused: true },
    });
    expect(paused.paused).toBe(true);
    const pausedAt = Date.now();
    const marker = await restarted.json<{ id: string }>(
      `/api/threads/${id}/schedules`,
      { method: 'POST', json: { at: pausedAt + 3 * EVERY_MS, message: 'marker' } },
      201,
    );
    const after = await until(
      () => restarted.messages(id),
      (list) => ticksOf(list, marker.id).length === 1,
      'the marker',
    );
    expect(ticksOf(after, schedule.id).filter((tick) => tick > pausedAt)).toEqual([]);
    const listed = await restarted.json<{ schedules: { id: string; fired_count: number }[] }>(
      `/api/threads/${id}/schedules`,
    );
    expect(listed.schedules.find((s) => s.id === schedule.id)?.fired_count).toBe(ticksOf(after, schedule.id).length);
  });
});
