/**
 * The client's thread stream against a real `wrangler dev` (THR-2): connections cut in the middle
 * of a turn, over the WebSocket and over Server-Sent Events, and each reconnect made to overlap
 * what was already delivered (it asks for 3 frames too many), yet the frames the stream delivers are
 * exactly the thread's complete frame list, 1..n, none missing, none twice. Also: the heartbeat
 * (pongs keep a quiet socket open; a socket whose pings go unanswered is replaced), a stream the
 * API refuses ends with its ApiError, and `followThread` + `threadReducer` (what `useThread` runs)
 * hold the same log the API lists.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiError, type FetchLike, type Frame, type FrameOf } from '../../client/index.js';
import { followThread, initialThreadView, type ThreadAction, threadReducer } from '../../client/react.js';
import { type ClientWorker, oneTo, StreamRecorder, startClientWorker } from './client-support.js';

/** Frames a reconnect asks for again: the stream must drop them. */
const OVERLAP = 3;
const ANSWER = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');

let worker: ClientWorker;

beforeAll(async () => {
  worker = await startClientWorker();
});

afterAll(async () => {
  await worker?.stop();
});

const deltas = (frames: readonly Frame[]) => frames.filter((frame) => frame.type === 'message_delta').length;

/** A thread whose next turn streams ANSWER slowly, in many deltas. */
async function slowTurn(): Promise<string> {
  worker.model.reset();
  worker.model.enqueue({ text: ANSWER, chunkSize: 3, chunkDelayMs: 10 });
  return (await worker.client.threads.create({ agent: 'assistant' })).id;
}

/** The frames of a turn, cut twice by `cut`, held to the thread's complete list. */
async function expectExactlyOnce(id: string, recorder: StreamRecorder, cut: () => void): Promise<void> {
  await worker.client.messages.post(id, { content: 'Answer slowly.' });
  await recorder.waitFor(({ frames }) => deltas(frames) >= 5, 'five deltas');
  cut();
  await recorder.waitFor(({ frames }) => deltas(frames) >= 25, 'twenty-five deltas');
  cut();
  await recorder.settled();
  const all = await worker.allFrames(id);
  expect(recorder.frames.map((frame) => frame.seq)).toEqual(oneTo(all.length));
  expect(recorder.frames).toEqual(all);
  const text = recorder.frames.flatMap((frame) => (frame.type === 'message_delta' ? [frame.delta] : [])).join('');
  expect(text).toBe(ANSWER);
  expect(recorder.states.filter((state) => state === 'reconnecting')).toHaveLength(2);
  expect(recorder.stream.lastSeq).toBe(all.length);
}

describe('the client stream against wrangler dev', () => {
  it('THR-2: a WebSocket cut twice mid-turn loses no frame and repeats none', async () => {
    const sockets: WebSocket[] = [];
    const asked: number[] = [];
    class Overlapping extends WebSocket {
      constructor(address: string) {
        const url = new URL(address);
        const after = Math.max(0, Number(url.searchParams.get('after')) - OVERLAP);
        url.searchParams.set('after', String(after));
        super(url);
        asked.push(after);
        sockets.push(this);
      }
    }
    const id = await slowTurn();
    const client = worker.clientWith({ WebSocket: Overlapping });
    const recorder = new StreamRecorder(client.stream(id, { initialBackoffMs: 20, maxBackoffMs: 200 }));
    try {
      await expectExactlyOnce(id, recorder, () => sockets.at(-1)?.terminate());
      expect(sockets).toHaveLength(3);
      // Each reconnect was replayed frames the stream had delivered already.
      expect(asked.slice(1).every((after) => after > 0)).toBe(true);
    } finally {
      recorder.stream.close();
    }
  });

  it('THR-2: an event stream cut twice mid-turn resumes with Last-Event-ID, exactly once', async () => {
    const cuts: AbortController[] = [];
    const lastEventIds: number[] = [];
    const cutting: FetchLike = async (input, init) => {
      const request = new Request(input, init);
      if (!new URL(request.url).pathname.endsWith('/events')) return fetch(request);
      const headers = new Headers(request.headers);
      const after = Math.max(0, Number(headers.get('last-event-id') ?? 0) - OVERLAP);
      headers.set('last-event-id', String(after));
      lastEventIds.push(after);
      const response = await fetch(new Request(request, { headers }));
      if (!response.body) return response;
      const cut = new AbortController();
      cuts.push(cut);
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      response.body.pipeTo(writable, { signal: cut.signal }).catch(() => {});
      return new Response(readable, { status: response.status, headers: response.headers });
    };
    const id = await slowTurn();
    const client = worker.clientWith({ fetch: cutting });
    const recorder = new StreamRecorder(
      client.stream(id, { transport: 'sse', initialBackoffMs: 20, maxBackoffMs: 200 }),
    );
    try {
      await expectExactlyOnce(id, recorder, () => cuts.at(-1)?.abort(new Error('cut by the test')));
      expect(cuts).toHaveLength(3);
      expect(lastEventIds.slice(1).every((after) => after > 0)).toBe(true);
    } finally {
      recorder.stream.close();
    }
  });

  it('THR-2: pongs keep a quiet socket open; a socket whose pings go unanswered is replaced', async () => {
    const { id } = await worker.client.threads.create({ agent: 'assistant' });
    let pongs = 0;
    let muted = false;
    const sockets: WebSocket[] = [];
    class Counting extends WebSocket {
      constructor(address: string) {
        super(address);
        sockets.push(this);
        this.addEventListener('message', (event) => {
          if (event.data === 'pong') pongs++;
        });
      }
      override send(data: unknown, ...rest: unknown[]): void {
        if (muted && data === 'ping') return;
        (super.send as (...args: unknown[]) => void).call(this, data, ...rest);
      }
    }
    const client = worker.clientWith({ WebSocket: Counting });
    const recorder = new StreamRecorder(client.stream(id, { heartbeatMs: 100, initialBackoffMs: 20 }));
    try {
      await recorder.waitFor(() => pongs >= 5, 'five pongs');
      expect(sockets).toHaveLength(1);
      expect(recorder.states).toEqual(['connecting', 'open']);

      muted = true;
      await recorder.waitFor(({ states }) => states.includes('reconnecting'), 'the dead socket to be noticed', 5_000);
      muted = false;
      await recorder.waitFor(({ states }) => states.at(-1) === 'open', 'a new socket');
      expect(sockets.length).toBeGreaterThanOrEqual(2);
      expect(sockets[0]?.readyState).not.toBe(WebSocket.OPEN);
    } finally {
      recorder.stream.close();
    }
  });

  it('THR-6: a stream the API refuses ends with its ApiError, over either transport', async () => {
    for (const transport of ['websocket', 'sse'] as const) {
      const stream = worker.client.stream(randomUUID(), { transport, initialBackoffMs: 20 });
      const ended = await (async () => {
        for await (const _frame of stream) throw new Error('no frame expected');
      })().catch((error: unknown) => error);
      expect(ended, transport).toBeInstanceOf(ApiError);
      expect(ended, transport).toMatchObject({ status: 404, code: 'thread_not_found' });
      expect(stream.state).toBe('closed');
      expect(stream.error).toBe(ended);
    }
    const stranger = worker.clientWith({ apiKey: 'not-a-key' });
    const refused = stranger.stream(randomUUID());
    await new StreamRecorder(refused).waitFor(() => refused.state === 'closed', 'the refusal');
    expect(refused.error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('THR-2: followThread and threadReducer (useThread) hold the log, the wait and the streaming text', async () => {
    worker.model.reset();
    const questions = [{ question: 'Go on?', options: [{ label: 'yes' }, { label: 'no' }] }];
    worker.model.enqueue(
      { toolCalls: [{ id: 'call_go', name: 'question', arguments: JSON.stringify({ questions }) }] },
      { text: ANSWER, chunkSize: 3, chunkDelayMs: 10 },
    );
    const { id } = await worker.client.threads.create({ agent: 'workspace' });
    let view = initialThreadView;
    const seen: (typeof view)[] = [];
    const unfollow = followThread(worker.client, id, {}, (action: ThreadAction) => {
      view = threadReducer(view, action);
      seen.push(view);
    });
    const until = async (check: () => boolean, what: string) => {
      for (const deadline = Date.now() + 30_000; !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(view)}`);
      }
    };
    try {
      await until(() => view.connection === 'open' && view.status === 'idle', 'the thread to load');
      const loadedAt = (await worker.client.threads.get(id)).last_frame_seq;
      await worker.client.messages.post(id, { content: 'Ask me, then talk.' });
      // The `waiting` frame comes as the call pauses; the `status` frame once the turn has ended.
      await until(() => view.waitingFor.length === 1 && view.status !== 'running', 'the question and the pause');
      expect(view.waitingFor[0]).toMatchObject({ tool_call_id: 'call_go', kind: 'question' });
      expect(view.status).toBe('waiting');

      await worker.client.answers.question(id, { tool_call_id: 'call_go', answers: [['yes']] });
      await until(() => view.status === 'idle' && view.messages.length === 4, 'the end of the turn');
      expect(view.waitingFor).toEqual([]);
      expect(view.streamingText).toEqual({});
      expect(view.error).toBeNull();
      expect(view.messages).toEqual((await worker.client.messages.list(id)).messages);
      expect(view.frames.map((frame) => frame.seq)).toEqual(oneTo(view.lastSeq).slice(loadedAt));
      const answer = view.messages.at(-1);
      const partial = seen.map((state) => (answer ? state.streamingText[answer.id] : undefined)).filter(Boolean);
      expect(partial.length).toBeGreaterThan(1);
      expect(ANSWER.startsWith(partial.at(-1) ?? '-')).toBe(true);
      const waits = view.frames.filter((frame): frame is FrameOf<'waiting'> => frame.type === 'waiting');
      expect(waits.map((frame) => frame.tool_call_id)).toEqual(['call_go']);
    } finally {
      unfollow();
    }
  });
});
