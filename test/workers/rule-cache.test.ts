/**
 * THR-12: a thread keeps its permission rules in memory between calls, and a rule change takes
 * effect for the very next call. Through the HTTP API in workerd, with a scripted model calling the
 * `write` tool as a model would: the agent `bare` has no rule covering writes, so a write asks; an
 * "allow always" answer adds a session rule, and the next call must be decided by it.
 */
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: { arguments?: unknown } }[];
}

async function waiting(id: string): Promise<Waiting> {
  return until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (view) => view.status === 'waiting',
  );
}

const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write', arguments: { path, content } }] });

async function fileText(id: string, path: string): Promise<string | number> {
  const response = await api(`/api/threads/${id}/files${path}`);
  return response.status === 200 ? await response.text() : response.status;
}

describe('the thread’s permission rules, kept in memory (THR-12)', () => {
  it('THR-12: a rule added by "allow always" decides the next call, though the rules were read before it', async () => {
    const id = await createThread({ agent: 'bare' });
    // The first call reads the rules (none covers the write) and asks.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([write('/notes/a.txt', 'one'), { text: 'first' }]) },
    });
    const first = await waiting(id);
    expect(first.waiting_for[0]).toMatchObject({ kind: 'approval', name: 'write' });
    expect(await fileText(id, '/notes/a.txt')).toBe(404);
    const answered = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: first.waiting_for[0]?.tool_call_id, approved: true, always: true },
    });
    expect(answered.status).toBe(200);
    await settled(id);
    expect(await fileText(id, '/notes/a.txt')).toBe('one');

    // The same write runs unasked under the new rule; another path still asks.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([write('/notes/a.txt', 'two'), write('/notes/b.txt', 'other'), { text: 'second' }]) },
    });
    const second = await waiting(id);
    expect(await fileText(id, '/notes/a.txt')).toBe('two');
    expect(second.waiting_for).toHaveLength(1);
    expect(second.waiting_for[0]).toMatchObject({
      kind: 'approval',
      name: 'write',
      payload: { arguments: { path: '/notes/b.txt' } },
    });
    expect(await fileText(id, '/notes/b.txt')).toBe(404);
  });

  it('THR-12: rules given at creation decide the first call, and another thread’s rules are not its', async () => {
    const allowed = await createThread({
      agent: 'bare',
      permissions: [{ permission: 'write', pattern: '/notes/*', action: 'allow' }],
    });
    const plain = await createThread({ agent: 'bare' });
    for (const id of [allowed, plain]) {
      await api(`/api/threads/${id}/messages`, {
        method: 'POST',
        json: { content: directive([write('/notes/c.txt', 'three'), { text: 'done' }]) },
      });
    }
    await settled(allowed);
    expect(await fileText(allowed, '/notes/c.txt')).toBe('three');
    const asked = await waiting(plain);
    expect(asked.waiting_for[0]).toMatchObject({ kind: 'approval', name: 'write' });
    expect(await fileText(plain, '/notes/c.txt')).toBe(404);
  });
});
