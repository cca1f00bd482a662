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
