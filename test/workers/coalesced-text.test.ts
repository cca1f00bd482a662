/**
 * THR-9, THR-3: streamed model text coalesced into few `message_delta` frames, on the wire and in the
 * frame store, through a real WebSocket and the HTTP API. The model is the local OpenAI-compatible
 * server, streaming four characters a delta. The test Worker's interval (coalescing-app.ts) is a
 * minute, so no timer fires within a test: a step's first delta goes out at once and the rest of its
 * text joined, just before the step's next frame. The frames are therefore the same on every run.
 */
import type { ScriptedReply } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import type { NumberedFrame } from '../../src/engine/ports/frames.js';
import { api, createThread, messages, settled, thread } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { allFrames, openStream } from '../support/socket.js';

const ANSWER = 'A long answer the model streams four characters at a time, with a pause between the pieces.';

/** A reply of the local model server: the directive carries its pacing through (global-setup.ts). */
const paced = (reply: ScriptedReply & { chunkSize?: number; chunkDelayMs?: number; streamError?: object }) =>
  reply as ScriptedReply;

const deltasOf = (frames: readonly NumberedFrame[], messageId: string) =>
  frames.flatMap((frame) => (frame.type === 'message_delta' && frame.message_id === messageId ? [frame] : []));

async function framesThrough(id: string): Promise<NumberedFrame[]> {
  const last = (await thread(id)).last_frame_seq;
  const frames = await allFrames(id);
  expect(frames.map((frame) => frame.seq)).toEqual(Array.from({ length: last }, (_, index) => index + 1));
  return frames;
}

describe('THR-9: coalesced streamed text', () => {
  it('THR-9: a WebSocket opened with ?after= while a step streams gets every later frame once, in order: the joined text, then its message', async () => {
    const id = await createThread({ agent: 'coalesce' });
    const first = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([paced({ text: ANSWER, chunkSize: 4, chunkDelayMs: 10 })]) },
    });
    // The step's first delta goes out at once; the socket opened now joins mid-step.
    const cut = await first.waitFor((frame) => frame.type === 'message_delta');
    const resumed = await openStream(id, cut.seq);
    await settled(id);
    const all = await framesThrough(id);
    const last = all.at(-1)?.seq ?? 0;
    await resumed.waitFor((frame) => frame.seq === last);
    await first.waitFor((frame) => frame.seq === last);

    expect(resumed.frames).toEqual(all.slice(cut.seq));
    expect(first.frames).toEqual(all);
    const answer = (await messages(id)).at(-1);
    expect(answer?.content).toBe(ANSWER);
    const deltas = deltasOf(all, answer?.id ?? '');
    // 23 deltas from the model, two frames: the first at once, the rest joined.
    expect(deltas).toHaveLength(2);
    expect(deltas[0]?.seq).toBe(cut.seq);
    expect(deltas.map((frame) => frame.delta).join('')).toBe(ANSWER);
    const stored = all.find((frame) => frame.type === 'message' && frame.message.id === answer?.id);
    expect(stored?.seq).toBe((deltas[1]?.seq ?? 0) + 1);
    expect(deltasOf(resumed.frames, answer?.id ?? '')).toEqual([deltas[1]]);
    first.close();
    resumed.close();
  });

  it('THR-9, THR-3: a step that fails after some text sends its joined text, then message_abandoned, and no delta after', async () => {
    const id = await createThread({ agent: 'coalesce' });
    const text = 'Some text the model streams before its provider breaks off.';
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([paced({ text, chunkSize: 4, streamError: { message: 'Upstream overloaded', code: 400 } })]),
      },
    });
    await settled(id);
    const all = await framesThrough(id);
    const abandoned = all.filter((frame) => frame.type === 'message_abandoned');
    expect(abandoned.length).toBeGreaterThan(0);
    for (const frame of abandoned) {
      if (frame.type !== 'message_abandoned') continue;
      const deltas = deltasOf(all, frame.message_id);
      expect(deltas.map((delta) => delta.delta).join('')).toBe(text);
      expect(deltas.length).toBeLessThanOrEqual(2);
      expect(Math.max(...deltas.map((delta) => delta.seq))).toBeLessThan(frame.seq);
      expect(all.some((later) => later.seq > frame.seq && deltasOf([later], frame.message_id).length > 0)).toBe(false);
    }
    // The abandoned text is no message.
    expect((await messages(id)).some((message) => message.role === 'assistant' && message.content === text)).toBe(
      false,
    );
  });
});
