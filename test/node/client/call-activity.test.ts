/**
 * ARGS-1 and BEAT-1 as a user interface sees them: the client's reducer keeps a call's streaming
 * arguments (the whole text so far, whatever frames were coalesced away) and a long call's running
 * time until the frames that settle them, and the inspector's panel shows both as text.
 */
import { describe, expect, it } from 'vitest';
import { type Frame, nextCallActivity, noCallActivity } from '../../../client/index.js';
import { initialThreadView, threadReducer } from '../../../client/thread-state.js';
import { activityRows } from '../../../inspector/src/call-activity-rows.js';
import { STREAMED_ARGUMENT_TEXTS } from '../../support/hostile-corpus.js';

let seq = 0;
const frame = (body: Record<string, unknown>) => ({ seq: ++seq, ...body }) as Frame;
const delta = (id: string, text: string) =>
  frame({ type: 'tool_call_delta', tool_call_id: id, name: 'write', arguments_text: text });
const beat = (id: string, elapsed: number) =>
  frame({ type: 'tool_running', tool_call_id: id, name: 'crunch', elapsed_ms: elapsed, timeout_ms: 120_000 });

function reduce(frames: Frame[]) {
  return frames.reduce((view, next) => threadReducer(view, { type: 'frame', frame: next }), initialThreadView);
}

describe('ARGS-1 and BEAT-1 in the client reducer and the inspector', () => {
  it("ARGS-1: the reducer keeps each call's arguments whole-so-far, and drops them when the message holding the call arrives", () => {
    const view = reduce([delta('w1', '{"path":"/a'), delta('w1', '{"path":"/a.md","content":"# Ti')]);
    expect(view.streamingCalls).toEqual({ w1: { name: 'write', arguments_text: '{"path":"/a.md","content":"# Ti' } });
    expect(activityRows(view)).toEqual([
      { id: 'w1', kind: 'typing', title: 'write · arguments streaming', detail: '{"path":"/a.md","content":"# Ti' },
    ]);

    const stored = threadReducer(view, {
      type: 'frame',
      frame: frame({ type: 'message', message: { id: 'm1', seq: 9, role: 'assistant', tool_calls: [] } }),
    });
    expect(stored.streamingCalls).toEqual({});
    expect(activityRows(stored)).toEqual([]);
  });

  it('BEAT-1: the reducer keeps the last elapsed time of a running call until its result, and the panel says it', () => {
    const view = reduce([beat('c1', 30_000), beat('c1', 60_000)]);
    expect(view.runningCalls).toEqual({ c1: { name: 'crunch', elapsed_ms: 60_000, timeout_ms: 120_000 } });
    expect(activityRows(view)).toEqual([
      { id: 'c1', kind: 'running', title: 'crunch · running', detail: 'running for 1 min 0 s of its 2 min 0 s limit' },
    ]);
    const done = threadReducer(view, {
      type: 'frame',
      frame: frame({ type: 'tool_result', tool_call_id: 'c1', name: 'crunch', kind: 'other', status: 'success' }),
    });
    expect(done.runningCalls).toEqual({});
  });

  it('BEAT-1: a thread that settles (stopped, idle) leaves no call shown as running or typing', () => {
    const view = reduce([beat('c2', 30_000), delta('w2', '{"x'), frame({ type: 'status', status: 'idle' })]);
    expect(activityRows(view)).toEqual([]);
    expect(nextCallActivity(noCallActivity, frame({ type: 'usage' }))).toBe(noCallActivity);
  });

  it.each(STREAMED_ARGUMENT_TEXTS)('ARGS-1 (hostile): $label stays the exact text shown, never anything else', ({
    text,
  }) => {
    const view = reduce([delta('h1', text)]);
    expect(activityRows(view)[0]?.detail).toBe(text);
  });
});
