/**
 * Reading a provider's server-sent event stream (THR-4): bytes decoded and parsed as they arrive,
 * each event handed on at once, an abort honoured between reads, and what arrived recorded so a
 * caller can tell a stream that never started (retryable) from one cut off midway (not: its deltas
 * may already have reached clients). A body that carries no event at all is kept, up to 1 MiB, so
 * a server that ignored `stream` can still be read as JSON.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError } from '../../engine/ports/index.js';
import { describe, isRecord, snippet } from './http-text.js';
import { abortable, abortReason } from './retry.js';

const MAX_NON_EVENT_BODY = 1 << 20;

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
  try {
    while (!done) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await abortable(reader.read(), signal);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        throw new ProviderError(
          `${options.name}: the connection failed while streaming: ${describe(error)}`,
          undefined,
          true,
        );
      }
      if (chunk.done) break;
      if (chunk.value.byteLength > 0) progress.consumed = true;
      feed(decoder.decode(chunk.value, { stream: true }));
    }
    // A stream cut off without its end may still hold a last event that no blank line terminated.
    if (!done) feed(`${decoder.decode()}\n\n`);
  } finally {
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
