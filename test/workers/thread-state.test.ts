/**
 * The state's messages, lifecycle, queued tools and execution through HTTP in workerd (TS-1 to
 * TS-17), with the scripted model and the agents of test/workers/thread-state-app.ts: a queued call
 * runs as a call the model sees and passes the thread's rules; stored messages change and go with
 * frames clients see; a tool stops its execution; a thread terminates itself from inside a tool, or
 * through the API, and takes nothing more.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { allFrames } from '../support/socket.js';

type Replies = Parameters<typeof directive>[0];

async function start(replies: Replies): Promise<{ id: string; log: Message[] }> {
  const id = await createThread({ agent: 'thread_state', messages: [{ content: directive(replies) }] });
  return { id, log: await settled(id) };
}

/** Posts a script and waits for the turn it starts to end. */
async function send(id: string, replies: Replies): Promise<Message[]> {
  const before = (await messages(id)).length;
  const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive(replies) } });
  expect(posted.status).toBe(202);
  const [, log] = await until(
    () => Promise.all([thread(id), messages(id)]),
    ([view, current]) => {
      const last = current.at(-1);
      return current.length > before + 1 && view.status !== 'running' && last?.role === 'assistant' && !last.tool_calls;
    },
  );
  return log;
}

function resultOf(log: readonly Message[], tool: string): Record<string, unknown> {
  const message = [...log].reverse().find((m) => m.role === 'tool' && m.name === tool);
  if (!message) throw new Error(`no result of ${tool}`);
  return JSON.parse(message.content ?? 'null') as Record<string, unknown>;
}

describe('ThreadState: queued tools', () => {
  it('TS-7: a call queued by a tool runs at the next step as a stored call and result the model then answers', async () => {
    const { log } = await start([
      { toolCalls: [{ name: 'ts_queue', arguments: { tool: 'ts_lookup', args: { word: 'queue' } } }] },
      // The queued call is a step of the turn as the model sees it.
      { text: 'not played' },
      { text: 'answered after the lookup' },
    ]);
    expect(resultOf(log, 'ts_queue')).toEqual({ queued: 'done' });
    const queuedStep = log.find((m) => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'ts_lookup');
    expect(queuedStep?.tool_calls?.[0]?.function.arguments).toBe('{"word":"queue"}');
    const result = log.find((m) => m.role === 'tool' && m.name === 'ts_lookup');
    expect(result).toMatchObject({ tool_status: 'success', content: 'meaning of queue' });
    expect(log.at(-1)?.content).toBe('answered after the lookup');
  });

  it("TS-7, TS-9: a queued call to a tool the thread's rules deny is refused like the model's own; an unknown tool throws at once", async () => {
    const { id, log } = await start([
      { toolCalls: [{ name: 'ts_queue', arguments: { tool: 'ts_forbidden', args: {} } }] },
      { text: 'not played: the queued call is this step' },
      { toolCalls: [{ name: 'ts_queue', arguments: { tool: 'no_such_tool', args: {} } }] },
      { text: 'done' },
    ]);
    const denied = log.find((m) => m.role === 'tool' && m.name === 'ts_forbidden');
    expect(denied?.tool_status).toBe('error');
    expect(resultOf(log, 'ts_queue').queued).toMatch(/unknown tool "no_such_tool"/);
    expect(log.some((m) => m.tool_calls?.some((call) => call.function.name === 'no_such_tool'))).toBe(false);
    expect((await thread(id)).status).toBe('idle');
  });
});

describe('ThreadState: changing stored messages', () => {
  it('TS-3, TS-4, TS-5: a later turn edits an earlier message and removes an earlier step with its results; clients get frames', async () => {
    const { id, log } = await start([
      { toolCalls: [{ name: 'ts_lookup', arguments: { word: 'one' } }] },
      { text: 'first answer' },
    ]);
    const user = log.find((m) => m.role === 'user') as Message;
    const step = log.find((m) => m.role === 'assistant' && m.tool_calls?.length) as Message;
    const later = await send(id, [
      { toolCalls: [{ name: 'ts_edit', arguments: { update: user.id, remove: step.id } }] },
      { text: 'edited' },
    ]);
    const seen = resultOf(later, 'ts_edit');
    expect(seen.updated).toBe('done');
    expect(seen.role).toMatch(/only content and metadata/);
    expect(seen.removed).toBe('done');
    expect(seen.running).toMatch(/turn still running/);
    expect(seen.gone).toBeNull();
    const now = await messages(id);
    expect(now.find((m) => m.id === user.id)).toMatchObject({ content: 'edited', metadata: { edited: true } });
    expect(now.some((m) => m.id === step.id || (m.role === 'tool' && m.name === 'ts_lookup'))).toBe(false);
    const frames = await allFrames(id);
    expect(frames.find((f) => f.type === 'message_updated')).toMatchObject({
      message: { id: user.id, content: 'edited' },
    });
    const deleted = frames.find((f) => f.type === 'message_deleted') as { message_ids: string[] } | undefined;
    expect(deleted?.message_ids).toContain(step.id);
    expect(deleted?.message_ids).toHaveLength(2);
  });
});

describe('ThreadState: the execution', () => {
  it('TS-1, TS-13, TS-14, TS-17: a call sees its execution: one flowId per turn, its steps, the prompt path, a page of the log', async () => {
    const { log } = await start([
      { toolCalls: [{ name: 'ts_probe', arguments: {} }] },
      { toolCalls: [{ name: 'ts_probe', arguments: {} }] },
      { text: 'probed' },
    ]);
    const results = log.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? '{}'));
    expect(results[0].flowId).toBe(results[1].flowId);
    expect(results.map((r: { stepCount: number }) => r.stepCount)).toEqual([1, 2]);
    expect(results[1]).toMatchObject({ sideAStepCount: 2, promptPath: ['ts_main'], hasMore: true, terminated: null });
    expect(results[0].history).toBeGreaterThan(0);
  });

  it('TS-15: stop() ends the execution once the step is done: no further model step, the thread idle without an error', async () => {
    // The log ends in the call's result, not an answer: waited for by status and result.
    const id = await createThread({
      agent: 'thread_state',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'ts_stop', arguments: {} }] }, { text: 'never played' }]) },
      ],
    });
    const [view, log] = await until(
      () => Promise.all([thread(id), messages(id)]),
      ([current, all]) => current.status === 'idle' && all.some((m) => m.role === 'tool'),
    );
    expect(view.last_error).toBeNull();
    expect(resultOf(log, 'ts_stop')).toEqual({ stopped: true, by: 'a' });
    expect(log.some((m) => m.content === 'never played')).toBe(false);
    const frames = await allFrames(id);
    expect(frames.filter((f) => f.type === 'status').at(-1)).toMatchObject({
      status: 'idle',
      reason: 'execution_stopped',
    });
  });
});

describe('ThreadState: termination', () => {
  it('TS-10, TS-11: a tool terminates its own thread without waiting on its own turn; later messages get 409 and nothing is stored', async () => {
    const id = await createThread({
      agent: 'thread_state',
      messages: [{ content: directive([{ toolCalls: [{ name: 'ts_terminate', arguments: {} }] }, { text: 'never' }]) }],
    });
    const view = await until(
      () => thread(id),
      (current) => current.status === 'terminated',
    );
    expect(view.status).toBe('terminated');
    const log = await until(
      () => messages(id),
      (current) => current.some((m) => m.role === 'tool' && m.name === 'ts_terminate'),
    );
    expect(log.some((m) => m.content === 'never')).toBe(false);
    // The call that terminated its thread was part of the turn it ended: it ends as a stopped call.
    expect(log.find((m) => m.name === 'ts_terminate')?.tool_status).toBe('error');
    // An endpoint at rest may not schedule an effect on it: nothing is stored.
    const scheduled = await api(`/api/threads/${id}/effects/ping`, { method: 'POST' });
    expect(scheduled.status).toBeGreaterThanOrEqual(400);
    const effects = (await (await api(`/api/threads/${id}/effects`)).json()) as { effects: unknown[] };
    expect(effects.effects).toEqual([]);
    const before = log.length;
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'anyone there?' } });
    expect(posted.status).toBe(409);
    expect(((await posted.json()) as { error: { code: string } }).error.code).toBe('thread_terminated');
    expect((await messages(id)).length).toBe(before);
    // A second termination changes nothing.
    const again = await api(`/api/threads/${id}/terminate`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { status: string }).status).toBe('terminated');
  });

  it('TS-10, TS-11: POST /terminate ends a thread at rest; it stays terminated, refuses messages, its waiting effects cancelled', async () => {
    const { id } = await start([{ toolCalls: [{ name: 'ts_schedule', arguments: {} }] }, { text: 'hello' }]);
    const response = await api(`/api/threads/${id}/terminate`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe('terminated');
    const posted = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'more' } });
    expect(posted.status).toBe(409);
    expect((await thread(id)).status).toBe('terminated');
    const frames = await allFrames(id);
    expect(frames.filter((f) => f.type === 'status').at(-1)).toMatchObject({ status: 'terminated' });
    const effects = (await (await api(`/api/threads/${id}/effects`)).json()) as { effects: { status: string }[] };
    expect(effects.effects.map((effect) => effect.status)).toEqual(['cancelled']);
  });
});
