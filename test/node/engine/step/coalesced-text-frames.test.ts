/**
 * THR-9: streamed model text is sent at most one `message_delta` frame per interval per step, and
 * every other frame of the thread first sends what is held, so no delta follows its message or its
 * `message_abandoned`. Time is a fake clock the test moves by hand: which deltas are joined is the
 * same on every run.
 */
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../../src/engine/ports/index.js';
import { createScrubber } from '../../../../src/engine/secrets/index.js';
import { CoalescedTextFrames, type FlushClock } from '../../../../src/engine/step/index.js';
import { TextDeltaFrames } from '../../../../src/engine/step/text-delta-frames.js';
import { STREAMED_SECRET, STREAMED_SECRET_SPELLINGS } from '../../../support/hostile-corpus.js';

/** A clock that moves only when `advance` is called, running the timers that come due. */
class FakeClock implements FlushClock {
  time = 1_000_000;
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;

  now(): number {
    return this.time;
  }

  set(run: () => void, ms: number): unknown {
    const handle = this.next++;
    this.timers.set(handle, { at: this.time + ms, run });
    return handle;
  }

  clear(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pending(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = until;
  }
}

interface Sent {
  frame: Frame;
  at: number;
}

function setup(intervalMs = 50) {
  const clock = new FakeClock();
  const sent: Sent[] = [];
  const frames = new CoalescedTextFrames((frame) => sent.push({ frame, at: clock.now() }), intervalMs, clock);
  const delta = (text: string, messageId = 'm1'): void =>
    frames.emit({ type: 'message_delta', message_id: messageId, delta: text });
  return { clock, sent, frames, delta };
}

const deltasIn = (sent: readonly Sent[]) =>
  sent.flatMap(({ frame, at }) => (frame.type === 'message_delta' ? [{ ...frame, at }] : []));

describe('THR-9: coalesced message_delta frames', () => {
  it('THR-9: a step streaming a token every 5 ms for a second sends one frame per 50 ms at most, the text whole and in order', () => {
    const { clock, sent, delta, frames } = setup();
    const tokens = Array.from({ length: 200 }, (_, index) => `t${index} `);
    for (const token of tokens) {
      delta(token);
      clock.advance(5);
    }
    frames.flush();
    const deltas = deltasIn(sent);
    expect(deltas.map((frame) => frame.delta).join('')).toBe(tokens.join(''));
    expect(deltas.length).toBeLessThanOrEqual(1000 / 50 + 1);
    expect(deltas.length).toBeGreaterThan(10);
    const gaps = deltas.slice(1).map((frame, index) => frame.at - (deltas[index]?.at ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
  });

  it('THR-9: the first delta of a step goes out at once; what follows within the interval waits for the timer', () => {
    const { clock, sent, delta } = setup();
    delta('Hello');
    expect(deltasIn(sent).map((frame) => frame.delta)).toEqual(['Hello']);
    clock.advance(10);
    delta(', ');
    clock.advance(10);
    delta('world');
    expect(sent).toHaveLength(1);
    clock.advance(29);
    expect(sent).toHaveLength(1);
    clock.advance(1);
    expect(deltasIn(sent).map((frame) => [frame.delta, frame.at])).toEqual([
      ['Hello', 1_000_000],
      [', world', 1_000_050],
    ]);
    expect(clock.pending).toBe(0);
  });

  it('THR-9: any other frame of the thread sends the held text first, so no delta follows its message', () => {
    const { clock, sent, delta, frames } = setup();
    delta('one ');
    clock.advance(1);
    delta('two ');
    delta('three');
    frames.emit({ type: 'tool_call_delta', tool_call_id: 'c1', name: 'echo', arguments_text: '{}' });
    delta(' four');
    frames.emit({ type: 'status', status: 'idle' });
    expect(sent.map(({ frame }) => (frame.type === 'message_delta' ? frame.delta : frame.type))).toEqual([
      'one ',
      'two three',
      'tool_call_delta',
      ' four',
      'status',
    ]);
    expect(clock.pending).toBe(0);
    clock.advance(1000);
    expect(sent).toHaveLength(5);
  });

  it('THR-9, THR-3: a step abandoned after some text: its message_abandoned comes after every delta of it, none after', () => {
    const { clock, sent, delta, frames } = setup();
    delta('partial ');
    clock.advance(2);
    delta('text the step ');
    delta('never stores');
    frames.emit({ type: 'message_abandoned', message_id: 'm1' });
    clock.advance(1000);
    const types = sent.map(({ frame }) => frame.type);
    expect(types).toEqual(['message_delta', 'message_delta', 'message_abandoned']);
    expect(
      deltasIn(sent)
        .map((frame) => frame.delta)
        .join(''),
    ).toBe('partial text the step never stores');
  });

  it('THR-9: a new step sends the last step’s held text before its own first delta, which goes out at once', () => {
    const { clock, sent, delta } = setup();
    delta('a1 ', 'm1');
    clock.advance(1);
    delta('a2', 'm1');
    delta('b1', 'm2');
    expect(deltasIn(sent).map((frame) => [frame.message_id, frame.delta])).toEqual([
      ['m1', 'a1 '],
      ['m1', 'a2'],
      ['m2', 'b1'],
    ]);
    expect(clock.pending).toBe(0);
  });

  it('THR-9: an interval of 0 sends every delta as it comes', () => {
    const { sent, delta, clock } = setup(0);
    for (const piece of ['a', 'b', 'c']) delta(piece);
    expect(deltasIn(sent).map((frame) => frame.delta)).toEqual(['a', 'b', 'c']);
    expect(clock.pending).toBe(0);
  });

  it('THR-9: text held when the thread is erased is dropped, and its timer with it', () => {
    const { sent, delta, clock, frames } = setup();
    delta('kept');
    delta(' dropped');
    frames.drop();
    clock.advance(1000);
    expect(deltasIn(sent).map((frame) => frame.delta)).toEqual(['kept']);
    expect(clock.pending).toBe(0);
  });

  it.each(
    STREAMED_SECRET_SPELLINGS,
  )('EXE-8 (hostile): a secret streamed across deltas ($label) shows in no coalesced frame, not even its start', ({
    spell,
  }) => {
    const scrubber = createScrubber([STREAMED_SECRET]);
    const written = spell(STREAMED_SECRET);
    const answer = `Here it is: ${written} and that is all there is to say about it.`;
    const { clock, sent, frames } = setup();
    const text = new TextDeltaFrames(frames.emit, 'm1', scrubber.withoutSecretStart);
    // Three characters a delta, a delta every 20 ms: timers send joined text mid-secret too.
    for (let offset = 0; offset < answer.length; offset += 3) {
      text.add(answer.slice(offset, offset + 3));
      clock.advance(20);
    }
    text.flush();
    frames.flush();
    // What a watcher reads: each frame as the thread stores it, scrubbed whole.
    const shown = deltasIn(sent).map((frame) => scrubber.text(frame.delta));
    expect(shown.length).toBeGreaterThan(3);
    for (const delta of shown) expect(delta).not.toContain(written.slice(0, 4));
    expect(shown.join('')).toBe(scrubber.text(answer));
    expect(shown.join('')).toContain('[secret]');
  });
});
