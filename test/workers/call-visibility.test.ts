/**
 * ARGS-1 and BEAT-1 through the thread's WebSocket in workerd: a `write` call's arguments arrive as
 * `tool_call_delta` frames while the local model server streams them slowly, stored and replayed
 * like text deltas; a call running past the heartbeat interval (200 ms in the test Worker) sends
 * `tool_running` frames until it is stopped or times out, and none after. Every wait is on a frame.
 */
import { describe, expect, it } from 'vitest';
import type { NumberedFrame } from '../../src/engine/ports/frames.js';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { STREAMED_ARGUMENT_TEXTS } from '../support/hostile-corpus.js';
import { allFrames, type FrameCollector, openStream } from '../support/socket.js';
import { HEARTBEAT_MS } from './call-visibility-app.js';

type Of<T extends NumberedFrame['type']> = Extract<NumberedFrame, { type: T }>;
const deltasOf = (frames: NumberedFrame[], id: string) =>
  frames.filter(
    (frame): frame is Of<'tool_call_delta'> => frame.type === 'tool_call_delta' && frame.tool_call_id === id,
  );
const beatsOf = (frames: NumberedFrame[], id: string) =>
  frames.filter((frame): frame is Of<'tool_running'> => frame.type === 'tool_running' && frame.tool_call_id === id);

async function post(id: string, content: string): Promise<void> {
  const response = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } });
  expect(response.status).toBe(202);
}

/** Waits for `count` heartbeats of call `callId`, then stops the thread and waits for the call's result. */
async function heartbeatsThenStop(id: string, stream: FrameCollector, callId: string, count: number) {
  await stream.waitFor(() => beatsOf(stream.frames, callId).length >= count);
  expect((await api(`/api/threads/${id}/stop`, { method: 'POST' })).status).toBeLessThan(300);
  return (await stream.waitFor(
    (frame) => frame.type === 'tool_result' && frame.tool_call_id === callId,
  )) as Of<'tool_result'>;
}

describe('tool-call arguments and long calls, as a client sees them', () => {
  it("ARGS-1: a write call's arguments stream as tool_call_delta frames, whole so far, the last complete, replayed on reconnect", async () => {
    const id = await createThread({ agent: 'call_visibility_remote' });
    const stream = await openStream(id);
    const content = '# Draft\n\nEvery line of this note is typed out before the call runs. '.repeat(6);
    // 16 characters every 10 ms: the call takes the model at least 270 ms to write, so frames go out
    // while it does (one per 50 ms at most), and the last, complete, as the answer ends.
    const slowly = { chunkSize: 16, chunkDelayMs: 10 } as Record<string, unknown>;
    await post(
      id,
      directive([
        { toolCalls: [{ name: 'write', arguments: { path: '/draft.md', content } }], ...slowly },
        { text: 'written' },
      ]),
    );
    const log = await settled(id);
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');

    const stored = log.find((message) => message.tool_calls?.some((call) => call.function.name === 'write'));
    const call = stored?.tool_calls?.[0];
    const args = call?.function.arguments ?? '';
    const deltas = deltasOf(stream.frames, call?.id ?? '');
    expect(deltas.length).toBeGreaterThan(1);
    for (const frame of deltas) {
      expect(frame.name).toBe('write');
      expect(args.startsWith(frame.arguments_text)).toBe(true);
    }
    expect(deltas.at(-1)?.arguments_text).toBe(args);
    const storedAt = stream.frames.find((frame) => frame.type === 'message' && frame.message.id === stored?.id)?.seq;
    expect(deltas.every((frame) => frame.seq < (storedAt ?? 0))).toBe(true);
    expect(log.find((message) => message.role === 'tool')?.tool_status).toBe('success');
    // Stored like every frame: a client reconnecting from the start is replayed the same ones.
    expect(deltasOf(await allFrames(id), call?.id ?? '')).toEqual(deltas);
    stream.close();
  });

  it.each(
    STREAMED_ARGUMENT_TEXTS,
  )('ARGS-1 (hostile): $label streams as the exact text, the call is refused, the thread goes on', async ({ text }) => {
    const id = await createThread({ agent: 'call_visibility' });
    const stream = await openStream(id);
    await post(id, directive([{ toolCalls: [{ id: 'h1', name: 'write', arguments: text }] }, { text: 'went on' }]));
    const log = await settled(id);
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');

    expect(deltasOf(stream.frames, 'h1').at(-1)?.arguments_text).toBe(text);
    expect(log.find((message) => message.role === 'tool')?.tool_status).toBe('error');
    expect(log.at(-1)?.content).toBe('went on');
    const files = (await (await api(`/api/threads/${id}/files`)).json()) as { entries: unknown[] };
    expect(files.entries).toEqual([]);
    stream.close();
  });

  it('BEAT-1: a call running past the interval sends tool_running frames until it is stopped, and none after', async () => {
    const id = await createThread({ agent: 'call_visibility' });
    const stream = await openStream(id);
    await post(id, directive([{ toolCalls: [{ id: 'b1', name: 'hold_until_stopped' }] }, { text: 'never' }]));
    const first = await heartbeatsThenStop(id, stream, 'b1', 2);
    const beats = beatsOf(stream.frames, 'b1');
    expect(beats.slice(0, 2).map(({ name, timeout_ms }) => ({ name, timeout_ms }))).toEqual([
      { name: 'hold_until_stopped', timeout_ms: 20_000 },
      { name: 'hold_until_stopped', timeout_ms: 20_000 },
    ]);
    expect(beats[0]?.elapsed_ms).toBeGreaterThanOrEqual(HEARTBEAT_MS);
    expect(beats[1]?.elapsed_ms).toBeGreaterThan(beats[0]?.elapsed_ms ?? 0);

    // A second long call on the thread runs for two more intervals: a heartbeat the first call left
    // behind would have beaten in them.
    await stream.waitFor((frame) => frame.type === 'status' && frame.status !== 'running' && frame.seq > first.seq);
    await post(id, directive([{ toolCalls: [{ id: 'b2', name: 'hold_until_stopped' }] }, { text: 'never' }]));
    await heartbeatsThenStop(id, stream, 'b2', 2);
    expect(beatsOf(stream.frames, 'b1').filter((frame) => frame.seq > first.seq)).toEqual([]);
    stream.close();
  });

  it('BEAT-1 (hostile): a call that ignores its signal beats until its timeout, then the thread moves on and it beats no more', async () => {
    const id = await createThread({ agent: 'call_visibility' });
    const stream = await openStream(id);
    await post(id, directive([{ toolCalls: [{ id: 't1', name: 'hang_past_timeout' }] }, { text: 'moved on' }]));
    const log = await settled(id);
    const result = (await stream.waitFor(
      (frame) => frame.type === 'tool_result' && frame.tool_call_id === 't1',
    )) as Of<'tool_result'>;
    expect(result.status).toBe('error');
    expect(log.at(-1)?.content).toBe('moved on');
    const beats = beatsOf(stream.frames, 't1');
    expect(beats.length).toBeGreaterThan(0);
    expect(beats.every((frame) => frame.seq < result.seq && frame.timeout_ms === 1_000)).toBe(true);

    // Another long call runs for two intervals: the abandoned one sends nothing in them.
    await post(id, directive([{ toolCalls: [{ id: 't2', name: 'hold_until_stopped' }] }, { text: 'never' }]));
    await heartbeatsThenStop(id, stream, 't2', 2);
    expect(beatsOf(stream.frames, 't1').filter((frame) => frame.seq > result.seq)).toEqual([]);
    stream.close();
  });
});
