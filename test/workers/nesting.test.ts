import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { openStream } from '../support/socket.js';

interface Details {
  id: string;
  agent: string;
  status: string;
  tags: string[];
  parent_id: string | null;
  children: { id: string; status?: string }[];
  waiting_for: { tool_call_id: string; name: string; kind: string; payload: { child_id?: string } }[];
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

function taskCall(description: string, prompt: string) {
  return { toolCalls: [{ name: 'task', arguments: { description, prompt } }] };
}

/** Waits until `id` lists exactly one child whose status the index records as `status`, and returns that child's id. */
async function onlyChild(id: string, status: string): Promise<string> {
  const view = await until(
    () => details(id),
    (current) => current.children.length === 1 && current.children[0]?.status === status,
  );
  return view.children[0]?.id ?? '';
}

/** Waits until the thread's running step has started `tool` (its tool_started frame is in the log). */
async function untilToolStarted(id: string, tool: string): Promise<void> {
  const stream = await openStream(id, 0);
  try {
    await stream.waitFor((frame) => frame.type === 'tool_started' && frame.name === tool);
  } finally {
    stream.close();
  }
}

describe('nested subagents', () => {
  it('SUB-7: three levels of nesting', async () => {
    const grandchildScript = directive([
      { toolCalls: [{ name: 'make_attachment', arguments: { name: 'deep.txt', text: 'made by the grandchild' } }] },
      { text: 'grandchild answer: 42' },
    ]);
    const childScript = directive([taskCall('level two', grandchildScript), { text: 'child relays the answer' }]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall('level one', childScript), { text: 'top done' }]) }],
    });

    const log = await settled(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log.at(-1)?.content).toBe('top done');

    // The tree, as each thread describes it: top → child → grandchild, each with its status and parent.
    const childId = await onlyChild(id, 'idle');
    const grandchildId = await onlyChild(childId, 'idle');
    expect(new Set([id, childId, grandchildId]).size).toBe(3);
    const top = await details(id);
    expect(top).toMatchObject({ parent_id: null, status: 'idle', waiting_for: [] });
    expect(top.children).toEqual([{ id: childId, status: 'idle' }]);
    const child = await details(childId);
    expect(child).toMatchObject({ parent_id: id, agent: 'general', status: 'idle', tags: ['task:level one'] });
    expect(child.children).toEqual([{ id: grandchildId, status: 'idle' }]);
    const grandchild = await details(grandchildId);
    expect(grandchild).toMatchObject({
      parent_id: childId,
      agent: 'general',
      status: 'idle',
      tags: ['task:level two'],
      children: [],
    });

    // Level 3 → 2: the grandchild's answer is the child's task result, with the file it made.
    const childLog = await messages(childId);
    expect(childLog.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const childResult = childLog.find((m) => m.role === 'tool');
    expect(childResult).toMatchObject({ name: 'task', tool_status: 'success' });
    expect(childResult?.content).toContain('grandchild answer: 42');
    const [childRef] = childResult?.attachments ?? [];
    expect(childRef?.path).toMatch(new RegExp(`^/attachments/from-${grandchildId.slice(0, 8)}/.*deep\\.txt$`));
    expect(await (await api(`/api/threads/${childId}/files${childRef?.path}`)).text()).toBe('made by the grandchild');

    // Level 2 → 1: the child's answer is the top's task result, and what the grandchild produced came
    // up with it, valid in the top thread's own filesystem.
    const topResult = log.find((m) => m.role === 'tool');
    expect(topResult).toMatchObject({ name: 'task', tool_status: 'success' });
    expect(topResult?.content).toContain('child relays the answer');
    const [topRef] = topResult?.attachments ?? [];
    expect(topRef?.path).toMatch(new RegExp(`^/attachments/from-${childId.slice(0, 8)}/.*deep\\.txt$`));
    expect(topResult?.content).toContain(`[attachment ${topRef?.path}`);
    expect(await (await api(`/api/threads/${id}/files${topRef?.path}`)).text()).toBe('made by the grandchild');

    // Only the top thread lists the child; only the child lists the grandchild.
    const listed = async (parent: string) =>
      ((await (await api(`/api/threads?parent=${parent}`)).json()) as { threads: { id: string }[] }).threads.map(
        (entry) => entry.id,
      );
    expect(await listed(id)).toEqual([childId]);
    expect(await listed(childId)).toEqual([grandchildId]);
    expect(await listed(grandchildId)).toEqual([]);
  });

  it('SUB-7: a child evicted mid-run still reports back', async () => {
    const childScript = directive([{ toolCalls: [{ name: 'block_once' }] }, { text: 'child survived eviction' }]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall('survive', childScript), { text: 'parent done' }]) }],
    });
    const childId = await onlyChild(id, 'running');
    // The child is inside block_once's first run, which never returns.
    await untilToolStarted(childId, 'block_once');
    const waiting = await until(
      () => details(id),
      (view) => view.status === 'waiting' && view.waiting_for.length === 1,
    );
    expect(waiting.waiting_for[0]).toMatchObject({ name: 'task', kind: 'subagent', payload: { child_id: childId } });

    // evictDurableObject waits for in-flight events to drain and the child's alarm never ends (it
    // times out after 30 s, "it still has active references"), so the child is torn down the hard
    // way, as a crash or a restart would; the waiting parent goes with it.
    await abortAllDurableObjects();
    // The safety alarm the child's turn armed brings it back at once, without waiting ten seconds.
    expect(await runDurableObjectAlarm(stubFor(childId))).toBe(true);

    const childLog = await settled(childId);
    expect(childLog.find((m) => m.role === 'tool')).toMatchObject({
      name: 'block_once',
      tool_status: 'success',
      content: 'run 2',
    });
    expect(childLog.at(-1)).toMatchObject({ role: 'assistant', content: 'child survived eviction' });

    const log = await settled(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      name: 'task',
      tool_status: 'success',
      content: 'child survived eviction',
    });
    expect(log.at(-1)?.content).toBe('parent done');
    const after = await until(
      () => details(id),
      (view) => view.children[0]?.status === 'idle',
    );
    expect(after).toMatchObject({ status: 'idle', waiting_for: [], children: [{ id: childId, status: 'idle' }] });
    expect((await thread(id)).last_error).toBeNull();
  });

  it('SUB-7: a child evicted while it waits for its own subagent still hears the outcome and reports back', async () => {
    const grandchildScript = directive([{ toolCalls: [{ name: 'wait_for_abort' }] }, { text: 'never reached' }]);
    const childScript = directive([taskCall('hold', grandchildScript), { text: 'child carried on' }]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall('middle', childScript), { text: 'top done' }]) }],
    });
    const childId = await onlyChild(id, 'waiting');
    const grandchildId = await onlyChild(childId, 'running');
    await untilToolStarted(grandchildId, 'wait_for_abort');
    // Mid-run, between events: the child's step waits for the grandchild, so nothing of it is in flight.
    const child = await details(childId);
    expect(child.waiting_for).toMatchObject([{ name: 'task', kind: 'subagent', payload: { child_id: grandchildId } }]);
    await evictDurableObject(stubFor(childId));

    // Stopping the grandchild ends its turn; its outcome reaches the child's fresh instance over RPC.
    expect((await api(`/api/threads/${grandchildId}/stop`, { method: 'POST' })).status).toBe(200);

    const childLog = await settled(childId);
    expect(childLog.find((m) => m.role === 'tool')).toMatchObject({
      name: 'task',
      tool_status: 'error',
      content: 'Error: The child thread was stopped before it finished.',
    });
    expect(childLog.at(-1)).toMatchObject({ role: 'assistant', content: 'child carried on' });

    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      name: 'task',
      tool_status: 'success',
      content: 'child carried on',
    });
    expect(log.at(-1)?.content).toBe('top done');
    await until(
      () => Promise.all([details(id), details(childId)]),
      ([top, middle]) => top.children[0]?.status === 'idle' && middle.children[0]?.status === 'idle',
    );
    expect(await details(childId)).toMatchObject({ status: 'idle', waiting_for: [], parent_id: id });
  });

  it('SUB-7: a child evicted mid-run that then fails reports the failure to its waiting agent-tool call', async () => {
    const failing = { toolCalls: [{ name: 'throws' }] };
    const childScript = directive([{ toolCalls: [{ name: 'block_once' }] }, failing, failing, failing]);
    const id = await createThread({
      agent: 'delegator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'helper', arguments: { question: childScript, label: 'doomed' } }] },
            { text: 'parent heard the failure' },
          ]),
        },
      ],
    });
    const childId = await onlyChild(id, 'running');
    await untilToolStarted(childId, 'block_once');
    await until(
      () => details(id),
      (view) => view.status === 'waiting' && view.waiting_for[0]?.payload.child_id === childId,
    );

    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(stubFor(childId))).toBe(true);

    // After the restart block_once succeeds, then the doom-loop breaker ends the child's turn (EXE-7).
    const childLog = await settled(childId);
    expect(childLog.filter((m) => m.role === 'tool').map((m) => [m.name, m.tool_status])).toEqual([
      ['block_once', 'success'],
      ['throws', 'error'],
      ['throws', 'error'],
      ['throws', 'error'],
    ]);
    expect((await thread(childId)).last_error).toContain('failed 3 times in a row');

    const log = await settled(id);
    const result = log.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ name: 'helper', tool_status: 'error' });
    expect(result?.content).toMatch(/^Error: The child thread failed: Stopped: tool "throws" failed 3 times/);
    expect(log.at(-1)?.content).toBe('parent heard the failure');
    expect(await details(id)).toMatchObject({ status: 'idle', waiting_for: [] });
  });
});
