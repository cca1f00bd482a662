/**
 * An application written only against the specification's authoring API (test/e2e/spec-app: hooks,
 * an effect, a thread endpoint, tools that edit and delete messages) under a real `wrangler dev`,
 * driven through the HTTP API as its users would (TS-1, TS-3, TS-4, HOOK-8, HOOK-9, EFF-4, EFF-6, EP-1). The local
 * model server scripts the model: `SCHEDULE <topic> <minutes>`, `TIDY` and `VAULT` are answered with
 * a call of the matching tool, a tool result with `done`, anything else with an echo.
 */
import type { Message } from '@standardagents/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

const KEY = 'spec-app-key';
/** How many messages spec-app/hooks/trim_history.ts lets through. */
const KEEP_LAST = 4;

let model: OpenAIServer;
let dev: WranglerDev;
let api: ApiClient;

function scriptedCall(content: string): { name: string; arguments: string } | null {
  const schedule = /^SCHEDULE (\S+) (\d+)$/.exec(content);
  if (schedule) {
    return {
      name: 'schedule_follow_up',
      arguments: JSON.stringify({ topic: schedule[1], delay_minutes: Number(schedule[2]) }),
    };
  }
  if (content === 'TIDY') return { name: 'tidy_messages', arguments: '{}' };
  if (content === 'VAULT') return { name: 'read_vault', arguments: '{}' };
  return null;
}

beforeAll(async () => {
  model = await startOpenAIServer({
    respond: (body) => {
      const last = body.messages?.at(-1);
      const content = typeof last?.content === 'string' ? last.content : '';
      const call = last?.role === 'user' ? scriptedCall(content) : null;
      if (call) return { toolCalls: [call] };
      return { text: last?.role === 'tool' ? 'done' : `echo: ${content}` };
    },
  });
  dev = await startWranglerDev({
    config: 'test/e2e/spec-app/wrangler.toml',
    snapshot: true,
    vars: { API_KEYS: KEY, OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'x', MODEL: 'fake-model' },
  });
  api = new ApiClient(dev.url, KEY);
}, 120_000);

afterAll(async () => {
  await dev?.stop();
  await model?.close();
});

/** Polls the thread until its turn has ended. */
async function settled(id: string, timeoutMs = 60_000): Promise<Message[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await api.endedTurn(id);
    if (view) {
      expect(view, 'the turn ended idle').toMatchObject({ status: 'idle' });
      return api.messages(id);
    }
    if (Date.now() > deadline) throw new Error(`thread ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function say(id: string, content: string): Promise<Message[]> {
  await api.postMessage(id, content);
  return settled(id);
}

interface EffectView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: string;
}

const effects = async (id: string) => (await api.json<{ effects: EffectView[] }>(`/api/threads/${id}/effects`)).effects;

describe('an application written against the specification, under wrangler dev', () => {
  let thread: string;

  beforeAll(async () => {
    thread = (await api.createThread({ agent: 'notes', messages: [{ content: 'first note' }] })).id;
    await settled(thread);
  });

  it('HOOK-8: filter_messages trims what the model is sent; the stored log keeps every message', async () => {
    await say(thread, 'second note');
    const log = await say(thread, 'third note');
    expect(log.filter((message) => message.role !== 'system').length).toBeGreaterThan(KEEP_LAST);
    const sent = model.requests.at(-1)?.body?.messages as Array<{ role: string; content: unknown }>;
    expect(sent.filter((message) => message.role !== 'system')).toHaveLength(KEEP_LAST);
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'third note' });
  });

  it('HOOK-9: before_store_tool_result masks the key in the stored tool result and in what the model sees', async () => {
    const log = await say(thread, 'VAULT');
    const result = log.findLast((message) => message.role === 'tool' && message.name === 'read_vault');
    expect(result?.content).toContain('[redacted]');
    expect(JSON.stringify(log)).not.toContain('sk_live_ABC123');
    expect(JSON.stringify(model.requests.at(-1)?.body)).not.toContain('sk_live_ABC123');
  });

  it('EFF-6, EP-1, TS-1: an effect scheduled by a tool is listed, shown by the thread endpoint, and cancelled through the API', async () => {
    await say(thread, 'SCHEDULE dentist 60');
    const [pending] = await effects(thread);
    expect(pending).toMatchObject({ name: 'follow_up', args: { topic: 'dentist' }, status: 'pending' });

    const summary = await api.json<Record<string, unknown>>(`/api/threads/${thread}/summary`);
    expect(summary).toMatchObject({ threadId: thread, agent: 'notes', scheduledEffects: ['follow_up'] });
    expect((await api.request(`/api/threads/${thread}/summary`, { key: null })).status).toBe(401);

    const cancelled = await api.request(`/api/threads/${thread}/effects/${pending?.id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(await effects(thread)).toEqual([expect.objectContaining({ id: pending?.id, status: 'cancelled' })]);
    expect((await api.json<{ scheduledEffects: string[] }>(`/api/threads/${thread}/summary`)).scheduledEffects).toEqual(
      [],
    );
  });

  it("EFF-4: an effect due now runs from the thread's alarm and writes into the thread", async () => {
    await say(thread, 'SCHEDULE call 0');
    const deadline = Date.now() + 30_000;
    let log = await api.messages(thread);
    while (!log.some((message) => message.content === 'Follow-up: call')) {
      if (Date.now() > deadline) throw new Error(`the effect never ran: ${JSON.stringify(await effects(thread))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await api.messages(thread);
    }
    expect((await effects(thread)).find((effect) => effect.args.topic === 'call')?.status).toBe('completed');
  });

  it('TS-3, TS-4: a tool updates the first message and deletes the messages it was asked to forget', async () => {
    await say(thread, 'FORGET this line');
    const log = await say(thread, 'TIDY');
    expect(log[0]).toMatchObject({ content: 'first note', metadata: expect.objectContaining({ read: true }) });
    expect(log.some((message) => message.content === 'FORGET this line')).toBe(false);
    const result = log.findLast((message) => message.role === 'tool' && message.name === 'tidy_messages');
    expect(result?.content).toContain('deleted 1');
  });
});
