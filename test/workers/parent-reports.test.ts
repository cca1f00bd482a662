/**
 * SUB-7: a child whose parent cannot be reached keeps its report and tries again from its alarm,
 * never dropping it silently; after a minute of failures it gives up and says so.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeEnv } from '../../src/thread/bindings/env.js';
import { reportToParent, retryReport } from '../../src/thread/children/parent-reports.js';
import { ThreadMeta, type ThreadRecord } from '../../src/thread/storage/thread-meta.js';
import { api, createThread } from '../support/api.js';
import { storedMessage } from '../support/stored-message.js';

const answer: Message = storedMessage(2, { id: 'm1', role: 'assistant', content: 'child answer', created_at: 0 });

/** An environment whose parent stub fails `failures` times, then records what it receives. */
function flakyParent(failures: number) {
  const received: string[] = [];
  let calls = 0;
  const stub = {
    childMessage: async (_childId: string, content: string) => {
      calls++;
      if (calls <= failures) throw new Error('parent unavailable');
      received.push(content);
      return 'delivered';
    },
  };
  const flaky = { ...env, THREADS: { idFromName: (name: string) => name, get: () => stub } } as unknown as RuntimeEnv;
  return { env: flaky, received };
}

describe('reports to a parent that cannot be reached', () => {
  it('SUB-7: the report is kept and delivered by a later try', async () => {
    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await runInDurableObject(stub, async (_instance, state) => {
      const meta = new ThreadMeta(state.storage);
      const record: ThreadRecord = {
        id,
        agentId: 'general',
        userId: 'u',
        createdAt: 0,
        headless: true,
        parentId: 'parent-1',
        tags: ['name:scout'],
        notifyParent: true,
      };
      const parent = flakyParent(1);
      const outcome = { kind: 'done', reason: 'response' } as const;
      expect(await reportToParent(parent.env, meta, record, outcome, [answer])).toBe(true);
      expect(parent.received).toEqual([]);
      expect(meta.get('pending_report')).toMatchObject({ attempts: 1, length: 1 });
      expect(await retryReport(parent.env, meta, record, [answer])).toBe(false);
      expect(parent.received).toEqual([`Subagent general "scout" (thread ${id}) finished:\nchild answer`]);
      expect(meta.get('pending_report')).toBeNull();
      // Nothing is delivered twice.
      expect(await retryReport(parent.env, meta, record, [answer])).toBe(false);
      expect(parent.received).toHaveLength(1);

      const gone = flakyParent(Number.POSITIVE_INFINITY);
      meta.set('reported', false);
      let retry = await reportToParent(gone.env, meta, record, outcome, [answer]);
      let attempts = 1;
      while (retry) {
        retry = await retryReport(gone.env, meta, record, [answer]);
        attempts++;
      }
      expect(attempts).toBe(12);
    });
    expect(errors.mock.calls.at(-1)?.[0]).toContain('gave up after 12 attempts');
    errors.mockRestore();
  });

  it('SUB-7: a deleted parent answers parent_gone; the child keeps no report and schedules no retry', async () => {
    const parentId = await createThread({ agent: 'general' });
    const deleted = await api(`/api/threads/${parentId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const parent = env.THREADS.get(env.THREADS.idFromName(parentId));
    const outcome = { status: 'success' as const, result: 'late answer', child_id: 'child-1' };
    expect(await parent.childFinished('child-1', 'call-1', outcome)).toBe('parent_gone');
    expect(await parent.childMessage('child-1', 'late note')).toBe('parent_gone');

    const id = await createThread({ agent: 'general' });
    await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(id)), async (_instance, state) => {
      const meta = new ThreadMeta(state.storage);
      const record: ThreadRecord = {
        id,
        agentId: 'general',
        userId: 'u',
        createdAt: 0,
        headless: true,
        parentId,
        tags: [],
        reportTo: 'call-1',
      };
      const done = { kind: 'done', reason: 'response' } as const;
      expect(await reportToParent(env as unknown as RuntimeEnv, meta, record, done, [answer])).toBe(false);
      expect(meta.get('pending_report') ?? null).toBeNull();
    });
    expect((await api(`/api/threads/${parentId}`)).status).toBe(404);
  });
});
