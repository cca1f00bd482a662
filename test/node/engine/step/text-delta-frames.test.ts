/**
 * EXE-8 for streamed model text: the thread scrubs each `message_delta` frame whole, so a secret the
 * model streams across deltas must never reach a frame in pieces. The scripted model streams its
 * text 16 characters at a time, so every spelling below is cut across deltas.
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../../src/engine/ports/index.js';
import { createScrubber } from '../../../../src/engine/secrets/index.js';
import { STREAMED_SECRET, STREAMED_SECRET_SPELLINGS } from '../../../support/hostile-corpus.js';
import { createHarness } from '../../../support/memory-store.js';

type TextDelta = Extract<Frame, { type: 'message_delta' }>;

const textDeltas = (frames: readonly Frame[]) =>
  frames.filter((frame): frame is TextDelta => frame.type === 'message_delta');

describe('EXE-8: streamed model text', () => {
  it.each(
    STREAMED_SECRET_SPELLINGS,
  )('EXE-8 (hostile): a secret the model streams ($label) shows in no frame, not even its start', async ({ spell }) => {
    const scrubber = createScrubber([STREAMED_SECRET]);
    const written = spell(STREAMED_SECRET);
    const answer = `Here it is: ${written} and that is all there is to say about it.`;
    const h = createHarness({
      scrub: scrubber.text,
      withoutSecretStart: scrubber.withoutSecretStart,
      script: [{ text: answer }],
    });

    await h.send('tell me the key');

    // What a watcher reads: each frame as the thread stores it, scrubbed whole.
    const shown = textDeltas(h.frames).map((frame) => scrubber.text(frame.delta));
    expect(shown.length).toBeGreaterThan(3);
    for (const delta of shown) expect(delta).not.toContain(written.slice(0, 4));
    expect(shown.join('')).toBe(scrubber.text(answer));
    expect(shown.join('')).toContain('[secret]');
  });

  it('EXE-8: text that only looks like the start of a secret is sent in full when the answer ends', async () => {
    const scrubber = createScrubber([STREAMED_SECRET]);
    const answer = `The prefix is ${STREAMED_SECRET.slice(0, 8)}`;
    const h = createHarness({
      scrub: scrubber.text,
      withoutSecretStart: scrubber.withoutSecretStart,
      script: [{ text: answer }],
    });

    await h.send('which prefix?');

    expect(
      textDeltas(h.frames)
        .map((frame) => frame.delta)
        .join(''),
    ).toBe(answer);
  });
});
