/**
 * THR-3: a turn resumes from the persisted log. Calls that already have a result are never run
 * again; a call whose execution began before a restart is re-run only if its tool is idempotent.
 */
import { defineTool, type ToolCall, type ToolResult } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { createHarness, deferred, type Harness } from '../../../support/memory-store.js';

function counted(idempotent: boolean) {
  const runs: string[] = [];
  const tool = defineTool({
    description: 'Counts its runs.',
    idempotent,
    execute: async (state) => {
      runs.push(state.execution?.toolCallId ?? '?');
      return { status: 'success', result: `ran ${state.execution?.toolCallId}` };
    },
  });
  return { tool, runs };
}

function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** A log as a thread evicted mid-step leaves it: user, assistant with calls, some results. */
function seedInterruptedStep(h: Harness, calls: ToolCall[], answered: string[]) {
  h.store.append({ role: 'user', content: 'do three things' });
  h.store.append({ role: 'assistant', content: null, tool_calls: calls });
  for (const id of answered) {
    const name = calls.find((c) => c.id === id)?.function.name ?? '';
    h.store.append({
      role: 'tool',
      content: 'earlier result',
      name,
      tool_call_id: id,
      tool_status: 'success',
      envelope: { type: 'output', data: 'earlier result', metadata: { duration_ms: 1 } },
    });
  }
}

// Step 1 of the turn is the seeded assistant message; the resumed model step is step 2.
const RESUME_SCRIPT = [{ text: 'step 1 is already in the log' }, { text: 'All three done.' }];

describe('THR-3: resuming a turn from the log', () => {
  it('THR-3: only the calls without a result are executed, in order, then the model continues', async () => {
    const a = counted(false);
    const b = counted(false);
    const c = counted(false);
    const h = createHarness({ tools: { tool_a: a.tool, tool_b: b.tool, tool_c: c.tool }, script: RESUME_SCRIPT });
    seedInterruptedStep(h, [call('c1', 'tool_a'), call('c2', 'tool_b'), call('c3', 'tool_c')], ['c1']);

    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(a.runs).toEqual([]);
    expect(b.runs).toEqual(['c2']);
    expect(c.runs).toEqual(['c3']);
    expect(h.byRole('tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['c1', 'earlier result'],
      ['c2', 'ran c2'],
      ['c3', 'ran c3'],
    ]);
    expect(h.store.messages().at(-1)).toMatchObject({ role: 'assistant', content: 'All three done.' });
    // A second run finds nothing to execute: no call runs twice.
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect([...a.runs, ...b.runs, ...c.runs]).toEqual(['c2', 'c3']);
  });

  it('THR-3: a call already started (journal) is not re-run for a non-idempotent tool and gets the interrupted error; an idempotent one is re-run', async () => {
    const payment = counted(false);
    const lookup = counted(true);
    const h = createHarness({ tools: { charge_card: payment.tool, lookup: lookup.tool }, script: RESUME_SCRIPT });
    seedInterruptedStep(h, [call('p1', 'charge_card'), call('l1', 'lookup')], []);
    h.store.markToolStarted('p1');
    h.store.markToolStarted('l1');

    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(payment.runs).toEqual([]);
    expect(lookup.runs).toEqual(['l1']);
    const [charged, looked] = h.byRole('tool');
    expect(charged).toMatchObject({ tool_call_id: 'p1', name: 'charge_card', tool_status: 'error' });
    expect(charged?.content).toContain('interrupted');
    expect(charged?.content).toContain('not run again');
    expect(charged?.envelope?.type).toBe('error');
    expect(looked).toMatchObject({ tool_call_id: 'l1', tool_status: 'success', content: 'ran l1' });
    // The interrupted call never reached tool_started again.
    const started = h.frames.flatMap((frame) => (frame.type === 'tool_started' ? [frame.tool_call_id] : []));
    expect(started).toEqual(['l1']);
  });

  it('THR-3: a call is journaled as started only when its tool must not run twice', async () => {
    const payment = counted(false);
    const lookup = counted(true);
    const seen: Record<string, boolean> = {};
    const h = createHarness({ tools: { charge_card: payment.tool, lookup: lookup.tool }, script: RESUME_SCRIPT });
    const mark = h.store.markToolStarted.bind(h.store);
    h.store.markToolStarted = (id: string) => {
      seen[id] = true;
      mark(id);
    };
    seedInterruptedStep(h, [call('p1', 'charge_card'), call('l1', 'lookup')], []);

    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    expect([...payment.runs, ...lookup.runs]).toEqual(['p1', 'l1']);
    expect(seen).toEqual({ p1: true });
  });

  it('THR-3: a thread evicted while a tool ran resumes on the same storage without running it twice', async () => {
    const running = deferred();
    const runs: string[] = [];
    const send = defineTool({
      description: 'Sends an email.',
      execute: (state) => {
        runs.push(state.execution?.toolCallId ?? '?');
        running.resolve();
        return new Promise<ToolResult>(() => {}); // the isolate dies before it answers
      },
    });
    const first = createHarness({
      tools: { send_email: send },
      script: [{ toolCalls: [{ id: 'e1', name: 'send_email' }] }, { text: 'Tried to send it.' }],
    });
    first.user('email Bob');
    void first.run();
    await running.promise;

    // A new instance over the same persisted storage, as after eviction and an alarm.
    const restarted = createHarness({
      tools: { send_email: send },
      store: first.store,
      fileStore: first.fileStore,
      script: [{ toolCalls: [{ id: 'never', name: 'send_email' }] }, { text: 'Tried to send it.' }],
    });
    expect(await restarted.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['e1']);
    const [result] = restarted.byRole('tool');
    expect(result).toMatchObject({ tool_call_id: 'e1', tool_status: 'error' });
    expect(result?.content).toContain('interrupted');
    expect(restarted.store.messages().at(-1)?.content).toBe('Tried to send it.');

    first.controller.abort(); // let the abandoned first instance finish
  });

  it('THR-3: an idempotent tool evicted mid-run is re-run on the restarted thread', async () => {
    const running = deferred();
    const runs: string[] = [];
    let hang = true;
    const fetchPage = defineTool({
      description: 'Fetches a page.',
      idempotent: true,
      execute: (state) => {
        runs.push(state.execution?.toolCallId ?? '?');
        if (hang) {
          running.resolve();
          return new Promise<ToolResult>(() => {});
        }
        return Promise.resolve({ status: 'success', result: 'page body' });
      },
    });
    const script = [{ toolCalls: [{ id: 'f1', name: 'fetch_page' }] }, { text: 'Fetched.' }];
    const first = createHarness({ tools: { fetch_page: fetchPage }, script });
    first.user('fetch it');
    void first.run();
    await running.promise;

    hang = false;
    const restarted = createHarness({ tools: { fetch_page: fetchPage }, store: first.store, script });
    expect(await restarted.run()).toEqual({ kind: 'done', reason: 'response' });
    expect(runs).toEqual(['f1', 'f1']);
    expect(restarted.byRole('tool')[0]).toMatchObject({
      tool_call_id: 'f1',
      tool_status: 'success',
      content: 'page body',
    });

    first.controller.abort();
  });

  it('THR-3: a resumed call sees the step count of the step that made it', async () => {
    const seen: number[] = [];
    const probe = defineTool({
      description: 'Reports the step count.',
      execute: async (state) => {
        seen.push(state.execution?.stepCount ?? -1);
        return { status: 'success', result: 'ok' };
      },
    });
    const h = createHarness({ tools: { probe }, script: RESUME_SCRIPT });
    seedInterruptedStep(h, [call('x1', 'probe')], []);
    await h.run();
    expect(seen).toEqual([1]);
  });
});

describe('THR-3: text streamed before a restart', () => {
  it('THR-3: a step that streamed text but never stored its message is abandoned by a frame', async () => {
    const h = createHarness({ script: [{ text: 'a longer answer, streamed in several deltas to the client' }] });
    h.user('hello');
    // What a thread evicted mid-stream leaves: the streaming step's id, no message of that id.
    h.store.setValue('turn.streaming_message', 'step-before-restart');
    expect(await h.run()).toEqual({ kind: 'done', reason: 'response' });
    // Announced before the new step streams anything.
    expect(h.frames.map((frame) => frame.type).slice(0, 3)).toEqual(['message', 'message_abandoned', 'message_delta']);
    expect(h.frames[1]).toEqual({ type: 'message_abandoned', message_id: 'step-before-restart' });
    const answer = h.byRole('assistant')[0];
    const deltas = h.frames.filter((frame) => frame.type === 'message_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((frame) => frame.type === 'message_delta' && frame.message_id === answer?.id)).toBe(true);
    // The stored answer ends the stream: nothing is left to abandon at the next turn.
    expect(h.store.getValue('turn.streaming_message')).toBeUndefined();
    h.user('again');
    await h.run();
    expect(h.frames.filter((frame) => frame.type === 'message_abandoned')).toHaveLength(1);
  });
});
