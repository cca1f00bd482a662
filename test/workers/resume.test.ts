import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

/** Waits until the running step has reached the blocking tool, i.e. its tool_started is persisted. */
async function untilToolRunning(id: string, toolMessages: number) {
  await until(
    () => Promise.all([thread(id), messages(id)]),
    ([view, log]) => view.status === 'running' && log.filter((m) => m.role === 'tool').length === toolMessages,
  );
}

describe('resuming after eviction', () => {
  it('THR-3: an evicted idle thread reloads its log, variables and frames and carries on', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'record_order', arguments: { label: 'x' } }] }, { text: 'one' }]) },
      ],
    });
    await settled(id);
    const before = await thread(id);
    await evictDurableObject(stubFor(id));
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'record_order', arguments: { label: 'y' } }] }, { text: 'two' }]),
      },
    });
    const log = await settled(id);
    expect(log.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['x', 'x,y']);
    expect(log.map((m) => m.seq)).toEqual(log.map((_, index) => index + 1));
    expect((await thread(id)).last_frame_seq).toBeGreaterThan(before.last_frame_seq);
  });

  it('THR-3: an evicted thread resumes from the last persisted step; finished calls are not re-run, an interrupted one is reported, pending ones run', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'record_order', arguments: { label: 'a' } },
                { name: 'wait_for_abort' },
                { name: 'record_order', arguments: { label: 'c' } },
              ],
            },
            { text: 'resumed' },
          ]),
        },
      ],
    });
    await untilToolRunning(id, 1);
    const stub = stubFor(id);
    // Tear the object down mid-tool, as a crash or a restart would.
    await abortAllDurableObjects();
    // The safety alarm armed by the turn is what brings the object back.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const log = await settled(id);
    const results = log.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.name, m.tool_status])).toEqual([
      ['record_order', 'success'],
      ['wait_for_abort', 'error'],
      ['record_order', 'success'],
    ]);
    expect(results[0]?.content).toBe('a');
    expect(results[1]?.content).toContain('interrupted by a restart');
    // "a" ran once: the resumed loop did not execute it again.
    expect(results[2]?.content).toBe('a,c');
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'resumed' });
  });

  it('THR-3: a tool declared idempotent is run again after an interruption', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'block_once' }] }, { text: 'done' }]) }],
    });
    await until(
      () => thread(id),
      (view) => view.status === 'running' && view.message_count === 2,
    );
    const stub = stubFor(id);
    // Tear the object down mid-tool, as a crash or a restart would.
    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({ tool_status: 'success', content: 'run 2' });
  });
});
