/**
 * Exactly once, in order (client/sequencer.ts, client/thread-stream.ts): the sequencer's verdicts,
 * and the reconnecting stream over a scripted transport — replays overlapping what was delivered
 * are dropped, a gap resumes from the last frame delivered, drops reconnect after the backoff, a
 * permanent refusal ends the stream with its error, and `close()` (or leaving a `for await`) ends
 * every iterator and every reconnect.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../client/api-error.js';
import { createClient } from '../../../client/create-client.js';
import type { Frame } from '../../../client/frames.js';
import { FrameSequencer } from '../../../client/sequencer.js';
import { ReconnectingStream, type StreamState } from '../../../client/thread-stream.js';
import type { Transport, TransportEvents } from '../../../client/transport.js';

interface Attempt {
  after: number;
  events: TransportEvents;
  closedByStream: boolean;
}

/** A transport whose connections the test drives by hand. */
function scripted(): { transport: Transport; attempts: Attempt[]; last(): Attempt } {
  const attempts: Attempt[] = [];
  const transport: Transport = (after, events) => {
    const attempt = { after, events, closedByStream: false };
    attempts.push(attempt);
    return {
      close: () => {
        attempt.closedByStream = true;
      },
    };
  };
  return {
    transport,
    attempts,
    last: () => {
      const attempt = attempts.at(-1);
      if (!attempt) throw new Error('no connection yet');
      return attempt;
    },
  };
}

const text = (seq: number) => JSON.stringify({ seq, type: 'event', event: 'tick', data: seq });
const send = (attempt: Attempt, ...seqs: number[]) => {
  for (const seq of seqs) attempt.events.message(text(seq));
};
const seqs = (frames: Frame[]) => frames.map((frame) => frame.seq);

/** A stream whose backoff is 50, 100, 200 ... ms (no jitter), recording frames and states. */
function recorded(transport: Transport, after = 0) {
  const stream = new ReconnectingStream(transport, { after, initialMs: 100, maxMs: 1000, random: () => 0 });
  const frames: Frame[] = [];
  const states: StreamState[] = [stream.state];
  stream.on('*', (frame) => frames.push(frame));
  stream.onState((state) => states.push(state));
  return { stream, frames, states };
}

describe('FrameSequencer', () => {
  it('delivers the next number, drops what it delivered, and calls a skipped number a gap', () => {
    const sequencer = new FrameSequencer();
    expect([1, 2, 2, 1, 3].map((seq) => sequencer.accept(seq))).toEqual([
      'deliver',
      'deliver',
      'duplicate',
      'duplicate',
      'deliver',
    ]);
    expect(sequencer.accept(5)).toBe('gap');
    expect(sequencer.lastSeq).toBe(3);
    expect(sequencer.accept(4)).toBe('deliver');
  });

  it('starts after a given position and refuses one that is not a frame number', () => {
    const sequencer = new FrameSequencer(10);
    expect(sequencer.accept(10)).toBe('duplicate');
    expect(sequencer.accept(11)).toBe('deliver');
    expect(() => new FrameSequencer(-1)).toThrow(RangeError);
    expect(() => new FrameSequencer(1.5)).toThrow(RangeError);
  });
});

describe('ReconnectingStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('drops the frames a reconnect replays again and resumes from the last one delivered', () => {
    const { transport, attempts, last } = scripted();
    const { stream, frames, states } = recorded(transport);
    last().events.open();
    send(last(), 1, 2, 3);
    last().events.closed({ error: new Error('network') });
    expect(states).toEqual(['connecting', 'open', 'reconnecting']);

    vi.advanceTimersByTime(49);
    expect(attempts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(last().after).toBe(3);
    last().events.open();
    send(last(), 2, 3, 4, 3, 5);
    expect(seqs(frames)).toEqual([1, 2, 3, 4, 5]);
    expect(stream.lastSeq).toBe(5);
    expect(states.at(-1)).toBe('open');
  });

  it('on a gap abandons the connection and asks again from the last frame delivered', () => {
    const { transport, attempts, last } = scripted();
    const { frames } = recorded(transport);
    const first = last();
    first.events.open();
    send(first, 1, 2, 4);
    expect(first.closedByStream).toBe(true);
    send(first, 5);
    expect(seqs(frames)).toEqual([1, 2]);

    vi.advanceTimersByTime(50);
    expect(attempts.map((attempt) => attempt.after)).toEqual([0, 2]);
    send(last(), 3, 4, 5);
    expect(seqs(frames)).toEqual([1, 2, 3, 4, 5]);
  });

  it('waits longer after each failed attempt, and starts over once a connection delivers', () => {
    const { transport, attempts, last } = scripted();
    recorded(transport);
    const waits: number[] = [];
    for (let failure = 0; failure < 4; failure++) {
      const before = attempts.length;
      last().events.closed({ error: new Error('refused') });
      let waited = 0;
      while (attempts.length === before) {
        vi.advanceTimersByTime(10);
        waited += 10;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([50, 100, 200, 400]);
    send(last(), 1);
    last().events.closed({ error: new Error('dropped') });
    vi.advanceTimersByTime(50);
    expect(attempts).toHaveLength(6);
  });

  it('starts after `after`, dropping anything up to it', () => {
    const { transport, last } = scripted();
    const { frames } = recorded(transport, 7);
    expect(last().after).toBe(7);
    send(last(), 6, 7, 8);
    expect(seqs(frames)).toEqual([8]);
  });

  it('passes each listener only its type, and a throwing listener does not stop the others', () => {
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error));
    try {
      const { transport, last } = scripted();
      const stream = new ReconnectingStream(transport);
      const statuses: string[] = [];
      stream.on('*', () => {
        throw new Error('listener bug');
      });
      const stop = stream.on('status', (frame) => statuses.push(frame.status));
      last().events.message(JSON.stringify({ seq: 1, type: 'status', status: 'running' }));
      last().events.message(text(2));
      stop();
      last().events.message(JSON.stringify({ seq: 3, type: 'status', status: 'idle' }));
      expect(statuses).toEqual(['running']);
      expect(reported).toHaveLength(3);
      expect(stream.lastSeq).toBe(3);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ignores text that is not a frame (pong, heartbeats, malformed JSON)', () => {
    const { transport, last } = scripted();
    const { frames } = recorded(transport);
    for (const noise of ['pong', '', '{not json', '{"type":"event"}', '{"seq":0,"type":"x"}', '[1]']) {
      last().events.message(noise);
    }
    send(last(), 1);
    expect(seqs(frames)).toEqual([1]);
  });

  it('iterates every frame, then ends on close(), and never reconnects afterwards', async () => {
    const { transport, attempts, last } = scripted();
    const stream = new ReconnectingStream(transport);
    const iterator = stream[Symbol.asyncIterator]();
    send(last(), 1, 2);
    last().events.closed({ error: new Error('dropped') });
    stream.close();
    expect(await iterator.next()).toEqual({ value: expect.objectContaining({ seq: 1 }), done: false });
    expect(await iterator.next()).toEqual({ value: expect.objectContaining({ seq: 2 }), done: false });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    vi.advanceTimersByTime(60_000);
    expect(attempts).toHaveLength(1);
    expect(stream.state).toBe('closed');
  });

  it('ends a pending iteration at once on close() and closes the connection', async () => {
    const { transport, last } = scripted();
    const stream = new ReconnectingStream(transport);
    const pending = stream[Symbol.asyncIterator]().next();
    stream.close();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(last().closedByStream).toBe(true);
  });

  it('leaving a for-await loop closes the stream', async () => {
    const { transport, last } = scripted();
    const stream = new ReconnectingStream(transport);
    queueMicrotask(() => send(last(), 1, 2, 3));
    const seen: number[] = [];
    for await (const frame of stream) {
      seen.push(frame.seq);
      if (frame.seq === 2) break;
    }
    expect(seen).toEqual([1, 2]);
    expect(stream.state).toBe('closed');
    expect(last().closedByStream).toBe(true);
  });

  it('ends with the error of a permanent refusal: iterators throw it after the frames before it', async () => {
    const { transport, attempts, last } = scripted();
    const stream = new ReconnectingStream(transport);
    const iterator = stream[Symbol.asyncIterator]();
    send(last(), 1);
    const refusal = new ApiError(404, 'thread_not_found', 'no thread');
    last().events.closed({ fatal: refusal });
    expect(stream.state).toBe('closed');
    expect(stream.error).toBe(refusal);
    expect((await iterator.next()).value?.seq).toBe(1);
    await expect(iterator.next()).rejects.toBe(refusal);
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toBe(refusal);
    vi.advanceTimersByTime(60_000);
    expect(attempts).toHaveLength(1);
  });

  it('retries a transport that fails before it even returns', () => {
    const attempts: number[] = [];
    const failing: Transport = (after, events) => {
      attempts.push(after);
      events.closed({ error: new Error('no network') });
      return { close: () => {} };
    };
    const stream = new ReconnectingStream(failing, { initialMs: 100, random: () => 0 });
    expect(stream.state).toBe('reconnecting');
    vi.advanceTimersByTime(50 + 100 + 200);
    expect(attempts).toEqual([0, 0, 0, 0]);
    stream.close();
  });

  it('counts a transport that throws as a failed attempt and tries again', () => {
    let calls = 0;
    const throwing: Transport = () => {
      calls++;
      throw new Error('cannot construct');
    };
    const stream = new ReconnectingStream(throwing, { initialMs: 100, random: () => 0 });
    expect(stream.state).toBe('reconnecting');
    vi.advanceTimersByTime(50 + 100);
    expect(calls).toBe(3);
    stream.close();
    vi.advanceTimersByTime(10_000);
    expect(calls).toBe(3);
  });

  it('refuses at once a base URL no stream can be opened under', () => {
    const client = createClient({ baseUrl: 'no scheme here', fetch: async () => new Response() });
    expect(() => client.stream('t', { transport: 'sse' })).toThrow(TypeError);
    // Node 20 has no WebSocket global; later versions do, so it is taken away here.
    vi.stubGlobal('WebSocket', undefined);
    try {
      const noSocket = createClient({ baseUrl: 'http://127.0.0.1:1', fetch: async () => new Response() });
      expect(() => noSocket.stream('t', { transport: 'websocket' })).toThrow(/WebSocket/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ignores what an abandoned connection reports later', () => {
    const { transport, attempts, last } = scripted();
    const { frames, states } = recorded(transport);
    const first = last();
    send(first, 1, 3);
    vi.advanceTimersByTime(50);
    first.events.open();
    send(first, 2);
    first.events.closed({ fatal: new ApiError(401, 'unauthorized', 'late') });
    expect(seqs(frames)).toEqual([1]);
    expect(attempts).toHaveLength(2);
    expect(states.at(-1)).toBe('reconnecting');
  });
});
