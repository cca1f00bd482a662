/**
 * Reading a provider's server-sent event stream (THR-4): bytes decoded and parsed as they arrive,
 * each event handed on at once, an abort honoured between reads, and what arrived recorded so a
 * caller can tell a stream that never started (retryable) from one cut off midway (not: its deltas
 * may already have reached clients). A body that carries no event at all is kept, up to 1 MiB, so
 * a server that ignored `stream` can still be read as JSON.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from '../../engine/ports/index.js';
import { abortReason } from './abortable.js';
import { describe, isRecord, snippet } from './http-text.js';

const MAX_NON_EVENT_BODY = 1 << 20;

/**
 * Once the answer is complete, the rest of the body is still read to its end: a body read to its
 * end leaves the connection free for the next step's request, which then skips a new handshake
 * (measured locally: 0.5 ms of a 2 ms tool round). A server that holds the stream open, or keeps
 * sending, is cut off after this long or this much.
 */
const DRAIN_GRACE_MS = 100;
const DRAIN_MAX_BYTES = 1 << 16;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), DRAIN_GRACE_MS);
  });
  try {
    for (let bytes = 0; bytes <= DRAIN_MAX_BYTES && !signal?.aborted; ) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'expired' || next.done) return;
      bytes += next.value.byteLength;
    }
  } catch {
    // The answer is complete: a tail that fails changes nothing.
  } finally {
    clearTimeout(timer);
  }
}

export interface EventStreamRead {
  events: number;
  comments: number;
  /** The body as text while no event has arrived (for a non-streamed JSON answer). */
  raw: string;
}

export interface EventStreamOptions {
  /** Who is reading, for messages: "Anthropic provider". */
  name: string;
  signal: AbortSignal | undefined;
  /** Handles one event; returns true when the stream is complete and reading may stop. */
  onEvent(event: EventSourceMessage): boolean | undefined;
  /** Set once any byte arrived. */
  progress: { consumed: boolean };
}

export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  options: EventStreamOptions,
): Promise<EventStreamRead> {
  const { signal, progress } = options;
  const read: EventStreamRead = { events: 0, comments: 0, raw: '' };
  let done = false;
  const parser = createParser({
    onEvent(event) {
      if (signal?.aborted) throw abortReason(signal);
      read.events++;
      if (options.onEvent(event)) done = true;
    },
    onComment() {
      read.comments++;
    },
  });
  const feed = (text: string) => {
    if (read.events === 0 && read.raw.length < MAX_NON_EVENT_BODY) read.raw += text;
    parser.feed(text);
  };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // One listener for the whole stream, not one per read: an abort cancels the reader, which ends the
  // pending read at once.
  const onAbort = () => reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    while (!done) {
      if (signal?.aborted) throw abortReason(signal);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        throw new ProviderError(
          `${options.name}: the connection failed while streaming: ${describe(error)}`,
          undefined,
          true,
        );
      }
      if (signal?.aborted) throw abortReason(signal);
      if (chunk.done) break;
      if (chunk.value.byteLength > 0) progress.consumed = true;
      feed(decoder.decode(chunk.value, { stream: true }));
    }
    // A stream cut off without its end may still hold a last event that no blank line terminated.
    if (!done) feed(`${decoder.decode()}\n\n`);
    else await drain(reader, signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
  }
  return read;
}

/** One event's data as the JSON object it must be, or a ProviderError saying what arrived instead. */
export function eventObject(name: string, data: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ProviderError(`${name} sent a stream event that is not JSON: ${snippet(data)}`);
  }
  if (!isRecord(value)) throw new ProviderError(`${name} sent a stream event that is not an object: ${snippet(data)}`);
  return value;
}
