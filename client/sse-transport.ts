/**
 * The Server-Sent Events transport over `fetch`: `GET /api/threads/:id/events` with the key in
 * `Authorization` and the position in `Last-Event-ID`, the body read as it arrives and parsed with
 * `eventsource-parser` (so no EventSource global is needed: Node and Workers have none). Each
 * `frame` event's data is one frame's JSON; `: heartbeat` comments are signs of life. A stream
 * silent for `idleMs` (no frame, no heartbeat) counts as dead. A 4xx answer other than 408/429 is
 * permanent; anything else is worth another attempt.
 */
import { createParser } from 'eventsource-parser';
import { ApiError, isPermanent } from './api-error.js';
import type { FetchLike } from './options.js';
import type { Transport, TransportEvents } from './transport.js';

export interface SseTransportOptions {
  fetch: FetchLike;
  /** The events URL (the position travels in `Last-Event-ID`). */
  url: string;
  /** Sent with every request (the Authorization header). */
  headers: Record<string, string>;
  /** Silence after which the stream counts as dead, headers included. */
  idleMs: number;
}

export function sseTransport(options: SseTransportOptions): Transport {
  return (after: number, events: TransportEvents) => {
    const controller = new AbortController();
    let finished = false;
    let idle: ReturnType<typeof setTimeout> | undefined;

    const finish = (why: Parameters<TransportEvents['closed']>[0] | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(idle);
      controller.abort();
      if (why) events.closed(why);
    };
    /** Restarts the silence timer: called on every chunk. */
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => finish({ error: new Error(`nothing received for ${options.idleMs} ms: the stream is dead`) }),
        options.idleMs,
      );
    };

    const parser = createParser({
      onEvent: (event) => {
        if (finished) return;
        if (event.event === undefined || event.event === 'frame' || event.event === 'message') {
          events.message(event.data);
        }
      },
      onComment: () => {
        if (!finished) events.alive();
      },
    });

    const run = async () => {
      touch();
      const response = await options.fetch(options.url, {
        headers: { ...options.headers, accept: 'text/event-stream', 'last-event-id': String(after) },
        signal: controller.signal,
      });
      if (finished) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      if (!response.ok) {
        const error = await ApiError.fromResponse(response);
        finish(isPermanent(error.status) ? { fatal: error } : { error });
        return;
      }
      const body = response.body;
      if (!body) {
        finish({ fatal: new ApiError(response.status, 'no_stream', 'the events answer has no body to read') });
        return;
      }
      events.open();
      const reader = body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (finished) {
          await reader.cancel().catch(() => {});
          return;
        }
        if (done) {
          finish({ error: new Error('the event stream ended') });
          return;
        }
        touch();
        parser.feed(decoder.decode(value, { stream: true }));
      }
    };
    run().catch((error: unknown) => finish({ error }));

    return { close: () => finish(null) };
  };
}
