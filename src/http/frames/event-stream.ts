/**
 * A thread's frames as Server-Sent Events (THR-2): `retry: 1000` first, then each frame as
 * `id: <seq>`, `event: frame`, `data: <frame JSON>`, and a `: heartbeat` comment every
 * `heartbeatMs` so that proxies and clients keep an idle stream open. The id is the frame's seq, so
 * the `Last-Event-ID` a reconnecting EventSource sends is where the feed resumes: nothing is missed
 * and nothing is sent twice. A client that goes away closes the feed, and with it the socket to the
 * thread.
 */
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { type FeedEnd, FrameFeed } from './frame-feed.js';

/** Often enough for proxies that close connections silent for 30 s or more. */
export const HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting. */
export const RETRY_MS = 1000;

export interface FrameEventsOptions {
  env: RuntimeEnv;
  principal: Principal;
  threadId: string;
  /** The last frame the client saw. */
  after: number;
  heartbeatMs: number;
  /** Aborted when the client disconnects, where the platform says so. */
  signal?: AbortSignal;
}

const encoder = new TextEncoder();

/** One event; a data line per line of text, as the format requires (frame JSON has none today). */
function frameEvent(seq: number, text: string): string {
  const data = text
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}`)
    .join('\n');
  return `id: ${seq}\nevent: frame\n${data}\n\n`;
}

/**
 * The event stream of a thread's frames after `after`, once its socket is open; or how the feed
 * ended before that (`gone`: not the caller's thread).
 */
export async function openFrameEvents(options: FrameEventsOptions): Promise<ReadableStream<Uint8Array> | FeedEnd> {
  let output: ReadableStreamDefaultController<Uint8Array> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const send = (text: string) => {
    try {
      output?.enqueue(encoder.encode(text));
    } catch {
      // The stream was closed or cancelled meanwhile.
    }
  };
  const finish = (closeOutput: boolean) => {
    clearInterval(heartbeat);
    options.signal?.removeEventListener('abort', onAbort);
    feed.close();
    if (closeOutput) {
      try {
        output?.close();
      } catch {
        // Already closed or cancelled.
      }
    }
    output = null;
  };
  const onAbort = () => finish(false);
  const feed = new FrameFeed({
    env: options.env,
    principal: options.principal,
    threadId: options.threadId,
    after: options.after,
    onFrame: (frame, text) => send(frameEvent(frame.seq, text)),
    // The thread was deleted, or its stream lost: the client reconnects with Last-Event-ID.
    onEnd: () => finish(true),
  });
  // Created before the feed starts, so frames replayed at once have somewhere to go.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
      send(`retry: ${RETRY_MS}\n\n`);
      heartbeat = setInterval(() => send(': heartbeat\n\n'), options.heartbeatMs);
    },
    cancel: () => finish(false),
  });
  options.signal?.addEventListener('abort', onAbort);
  const opened = await feed.start();
  if (opened === 'open') return stream;
  finish(true);
  return opened;
}
