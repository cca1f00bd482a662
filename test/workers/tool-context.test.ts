/**
 * Tool context (KIND-6) and the round limit (KIND-7) through HTTP, on Durable Objects: context kept
 * across turns and an eviction, and `maxToolRounds: 0` leaving the model's calls unexecuted.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { SEEDED_CONTEXT_FORGERIES } from '../support/hostile-corpus.js';
import { allFrames } from '../support/socket.js';

const toolMessages = (log: Message[]) => log.filter((m) => m.role === 'tool');

async function post(id: string, content: string): Promise<void> {
  const response = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } });
  expect(response.status).toBeLessThan(300);
}

/** Waits until the thread is idle again with at least `count` messages, and returns its log. */
async function idleWith(id: string, count: number): Promise<Message[]> {
  const [, log] = await until(
    () => Promise.all([thread(id), messages(id)]),
    ([view, log]) => view.status === 'idle' && log.length >= count,
  );
  return log;
}

describe('KIND-6: tool context in a thread', () => {
  it('KIND-6: local and shared context persist across two turns and an eviction; an invalid update stores nothing', async () => {
    const id = await createThread({
      agent: 'ctx_general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'ctx_counter' }] }, { text: 'one' }]) }],
    });
    expect((await settled(id)).at(-1)?.content).toBe('one');
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));

    await post(id, directive([{ toolCalls: [{ name: 'ctx_corrupt' }, { name: 'ctx_counter' }] }, { text: 'two' }]));
    const log = await until(
      () => messages(id),
      (current) => current.at(-1)?.content === 'two',
    );
    const [first, corrupt, second] = toolMessages(log);
    expect(JSON.parse(first?.content ?? '')).toEqual({ local: { count: 1 }, shared: { visits: 1 } });
    expect(corrupt).toMatchObject({ name: 'ctx_corrupt', tool_status: 'error' });
    expect(corrupt?.content).toContain('setContext: the context of tool "ctx_corrupt" would not match');
    expect(corrupt?.content).toContain('count:');
    expect(JSON.parse(second?.content ?? '')).toEqual({ local: { count: 2 }, shared: { visits: 2 } });
  });
});

describe('KIND-7: maxToolRounds over HTTP', () => {
  it('KIND-7: maxToolRounds: 0 leaves the tool calls unexecuted; the next message answers them and the model goes on', async () => {
    const id = await createThread({
      agent: 'ctx_no_rounds',
      messages: [{ content: directive([{ toolCalls: [{ name: 'ctx_counter', id: 'held-1' }] }]) }],
    });
    const held = await idleWith(id, 2);
    expect(held.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(held[1]).toMatchObject({ metadata: { round_limit: true } });
    expect(held[1]?.tool_calls?.map((call) => call.id)).toEqual(['held-1']);

    // Still unexecuted after the Durable Object restarts.
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    expect((await thread(id)).status).toBe('idle');
    expect(toolMessages(await messages(id))).toEqual([]);

    await post(id, directive([{ text: 'answered in text' }]));
    const log = await settled(id);
    expect(toolMessages(log)).toEqual([
      expect.objectContaining({
        tool_call_id: 'held-1',
        tool_status: 'error',
        content: expect.stringContaining('not executed: the round limit'),
      }),
    ]);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'answered in text' });
  });
});

const PROFILE_CALL = directive([{ toolCalls: [{ name: 'ctx_profile' }] }, { text: 'shown' }]);

async function threadCount(): Promise<number> {
  const response = await api('/api/threads?limit=100');
  return ((await response.json()) as { threads: unknown[] }).threads.length;
}

describe('CTX-1: the caller seeds tool context', () => {
  it('CTX-1: context given at creation is what the tool reads; resolveContext completes it once, across turns and an eviction; every change streams context_updated', async () => {
    const id = await createThread({
      agent: 'ctx_seeded',
      context: { ctx_profile: { user: 'ada', plan: 'pro' } },
      messages: [{ content: PROFILE_CALL }],
    });
    const first = toolMessages(await settled(id))[0];
    // The seed ran before the first step: it saw the creator's plan and counted itself once.
    expect(JSON.parse(first?.content ?? '')).toEqual({ user: 'ada!', plan: 'pro', seeds: 1 });

    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    await post(id, PROFILE_CALL);
    const log = await until(
      () => messages(id),
      (current) => toolMessages(current).length === 2 && current.at(-1)?.content === 'shown',
    );
    expect(JSON.parse(toolMessages(log)[1]?.content ?? '')).toEqual({ user: 'ada!!', plan: 'pro', seeds: 1 });

    const updates = (await allFrames(id)).filter((frame) => frame.type === 'context_updated');
    expect(updates.map((frame) => (frame.type === 'context_updated' ? frame.context : null))).toEqual([
      { user: 'ada', plan: 'pro', seeds: 1 },
      { user: 'ada!', plan: 'pro', seeds: 1 },
      { user: 'ada!!', plan: 'pro', seeds: 1 },
    ]);
    expect(updates.every((frame) => frame.type === 'context_updated' && frame.tool === 'ctx_profile')).toBe(true);
  });

  it('CTX-1: a thread started without context gets the seed alone; shared setContext streams with tool null', async () => {
    const id = await createThread({ agent: 'ctx_seeded', messages: [{ content: PROFILE_CALL }] });
    expect(JSON.parse(toolMessages(await settled(id))[0]?.content ?? '')).toEqual({
      user: 'nobody!',
      plan: 'free',
      seeds: 1,
    });
    const counter = await createThread({
      agent: 'ctx_general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'ctx_counter' }] }, { text: 'one' }]) }],
    });
    await settled(counter);
    const updates = (await allFrames(counter)).filter((frame) => frame.type === 'context_updated');
    expect(updates).toEqual([
      expect.objectContaining({ tool: 'ctx_counter', scope: 'local', context: { count: 1 } }),
      expect.objectContaining({ tool: null, scope: 'shared', context: { visits: 1 } }),
    ]);
  });

  it('CTX-1: context that fails a schema, names a tool without one, or is too big is refused with 400 naming the tool and field; nothing is created', async () => {
    const before = await threadCount();
    for (const { context, named, details } of SEEDED_CONTEXT_FORGERIES) {
      const response = await api('/api/threads', {
        method: 'POST',
        json: { agent: 'ctx_seeded', context, messages: [{ content: PROFILE_CALL }] },
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string; details: unknown } };
      expect(body.error.code).toBe('invalid_context');
      expect(body.error.message).toContain(named);
      expect(body.error.details).toEqual(details);
    }
    expect(await threadCount()).toBe(before);
  });

  it('CTX-1: prototype keys in a context change no prototype and store nothing the schema does not name', async () => {
    const response = await api('/api/threads', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"agent":"ctx_seeded","messages":[{"content":${JSON.stringify(PROFILE_CALL)}}],"context":{"ctx_profile":{"user":"eve","__proto__":{"plan":"pro","polluted":true},"constructor":{"prototype":{"polluted":true}}}}}`,
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(JSON.parse(toolMessages(await settled(id))[0]?.content ?? '')).toEqual({
      user: 'eve!',
      plan: 'free',
      seeds: 1,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('CTX-1: a resolveContext that reaches for a metadata address is refused; the turn fails naming the tool and its tool never runs', async () => {
    const id = await createThread({
      agent: 'ctx_seed_metadata',
      messages: [{ content: directive([{ toolCalls: [{ name: 'ctx_seed_metadata' }] }, { text: 'done' }]) }],
    });
    const log = await settled(id);
    const view = await thread(id);
    expect(view.last_error).toContain('resolveContext of tool "ctx_seed_metadata" failed');
    expect(view.last_error).toContain('169.254.169.254');
    expect(toolMessages(log)).toEqual([]);
  });
});
