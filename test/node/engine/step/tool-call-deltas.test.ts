/**
 * ARGS-1: a tool call's arguments reach the frames while the model streams them, as the whole text
 * so far, at most one frame per call every 50 ms. Time is the turn's injected clock: each reading
 * moves it on by a fixed step, so which deltas are held back is the same on every run.
 */
import { defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Frame } from '../../../../src/engine/ports/index.js';
import { createScrubber } from '../../../../src/engine/secrets/index.js';
import { ToolCallDeltaFrames } from '../../../../src/engine/step/tool-call-deltas.js';
import {
  FLOODING_ARGUMENT_LENGTH,
  STREAMED_SECRET,
  STREAMED_SECRET_SPELLINGS,
} from '../../../support/hostile-corpus.js';
import { createHarness } from '../../../support/memory-store.js';

type DeltaFrame = Extract<Frame, { type: 'tool_call_delta' }>;

const deltasOf = (frames: readonly Frame[]) =>
  frames.filter((frame): frame is DeltaFrame => frame.type === 'tool_call_delta');

/** A clock that reads `start`, then `start + stepMs`, and so on. */
function steppingClock(stepMs: number, start = 1_000_000): () => number {
  let now = start - stepMs;
  return () => {
    now += stepMs;
    return now;
  };
}

const note = defineTool({
  description: 'Keeps a note.',
  args: z.object({ title: z.string(), body: z.string() }),
  execute: async () => ({ status: 'success', result: 'kept' }),
});

describe('ARGS-1: tool-call arguments stream as tool_call_delta frames', () => {
  it('ARGS-1: a long argument streams whole-so-far, coalesced to one frame per call per 50 ms, the last complete, before its message', async () => {
    const body = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    const args = JSON.stringify({ title: 'fox', body });
    const h = createHarness({
      tools: { note },
      now: steppingClock(5),
      script: [{ toolCalls: [{ id: 'n1', name: 'note', arguments: args }] }, { text: 'noted' }],
    });

    expect(await h.send('take a note')).toEqual({ kind: 'done', reason: 'response' });

    const frames = deltasOf(h.frames);
    // The scripted model hears 16 characters per delta: 115 deltas, 5 ms apart on this clock.
    const heard = Math.ceil(args.length / 16);
    expect(frames.length).toBeGreaterThan(1);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil((heard * 5) / 50) + 2);
    for (const [index, frame] of frames.entries()) {
      expect(frame).toMatchObject({ tool_call_id: 'n1', name: 'note' });
      expect(args.startsWith(frame.arguments_text)).toBe(true);
      if (index > 0) expect(frame.arguments_text.length).toBeGreaterThan(frames[index - 1]?.arguments_text.length ?? 0);
    }
    expect(frames.at(-1)?.arguments_text).toBe(args);
    // Every delta comes before the stored message that holds the call.
    const stored = h.frames.findIndex((frame) => frame.type === 'message' && frame.message.tool_calls?.length);
    expect(h.frames.lastIndexOf(frames.at(-1) as Frame)).toBeLessThan(stored);
  });

  it('ARGS-1: each call has its own 50 ms budget from its first delta; a held delta goes out with the next one once due, or when the answer ends', () => {
    const sent: Frame[] = [];
    let now = 0;
    const frames = new ToolCallDeltaFrames(
      (frame) => sent.push(frame),
      () => now,
    );
    const delta = (id: string, text: string) => ({ id, name: 'write', argumentsText: text });

    frames.add(delta('a', '{"p'));
    now = 10;
    frames.add(delta('b', '{"c'));
    now = 20;
    frames.add(delta('a', '{"pa'));
    frames.add(delta('a', '{"pat'));
    now = 50;
    frames.add(delta('a', '{"path'));
    frames.add(delta('b', '{"co'));
    now = 60;
    frames.add(delta('b', '{"com'));
    frames.add(delta('a', '{"path"'));
    frames.flush();
    frames.flush();

    const shown = () => sent.map((frame) => [(frame as DeltaFrame).tool_call_id, (frame as DeltaFrame).arguments_text]);
    // `a` began at 0, so its first frame is due at 50; `b` began at 10, so at 60; then 50 ms apart,
    // and what is held when the answer ends goes out then, once.
    expect(shown()).toEqual([
      ['a', '{"path'],
      ['b', '{"com'],
      ['a', '{"path"'],
    ]);
  });

  it('ARGS-1: a call written within 50 ms is shown once, complete, when the answer ends', () => {
    const sent: Frame[] = [];
    let now = 0;
    const frames = new ToolCallDeltaFrames(
      (frame) => sent.push(frame),
      () => now,
    );
    for (const text of ['{"pa', '{"path":', '{"path":"/a"}']) {
      frames.add({ id: 'c', name: 'read', argumentsText: text });
      now += 10;
    }
    expect(sent).toEqual([]);
    frames.flush();
    expect(sent).toEqual([
      { type: 'tool_call_delta', tool_call_id: 'c', name: 'read', arguments_text: '{"path":"/a"}' },
    ]);
  });

  it('ARGS-1 (hostile): a model streaming a huge argument in tiny pieces makes a bounded number of frames', async () => {
    const args = JSON.stringify({ title: 'x', body: 'y'.repeat(FLOODING_ARGUMENT_LENGTH) });
    const h = createHarness({
      tools: { note },
      // The whole answer streams within one 50 ms window of this clock.
      now: steppingClock(0),
      script: [{ toolCalls: [{ id: 'n2', name: 'note', arguments: args }] }, { text: 'noted' }],
    });

    await h.send('take a long note');

    const frames = deltasOf(h.frames);
    expect(frames.map((frame) => frame.arguments_text.length)).toEqual([args.length]);
    expect(h.byRole('tool')[0]?.content).toBe('kept');
  });

  it.each(
    STREAMED_SECRET_SPELLINGS,
  )('ARGS-1 (hostile): a secret written into a call ($label) never shows while it streams, not even its start', async ({
    spell,
  }) => {
    const scrubber = createScrubber([STREAMED_SECRET]);
    const written = spell(STREAMED_SECRET);
    const args = JSON.stringify({ title: 'key', body: `the key is ${written} keep it` });
    const h = createHarness({
      tools: { note },
      // Every delta is due: each one becomes a frame, so each cut point of the secret is tried.
      now: steppingClock(50),
      scrub: scrubber.text,
      withoutSecretStart: scrubber.withoutSecretStart,
      script: [{ toolCalls: [{ id: 's1', name: 'note', arguments: args }] }, { text: 'noted' }],
    });

    await h.send('note the key');

    // The thread scrubs each frame whole as it stores it; what a watcher then reads:
    const shown = deltasOf(h.frames).map((frame) => scrubber.text(frame.arguments_text));
    expect(shown.length).toBeGreaterThan(3);
    for (const text of shown) expect(text).not.toContain(written.slice(0, 4));
    expect(shown.at(-1)).toBe(scrubber.text(args));
    expect(shown.at(-1)).toContain('[secret]');
  });
});
