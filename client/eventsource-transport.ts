/**
 * The Server-Sent Events transport over an EventSource (used when one is passed to createClient).
 * An EventSource cannot send headers, so the URL carries the position (`?after=`) and the key
 * (`?token=`). Its own reconnection is not used: on the first error it is closed and the stream
 * reconnects from its own position, like every other transport. As with a WebSocket, an error
 * before the first open may be a refusal whose status is hidden, so `probe` asks the API why.
 */
import type { ApiError } from './api-error.js';
import type { EventSourceConstructor } from './options.js';
import type { Transport, TransportEvents } from './transport.js';

export interface EventSourceTransportOptions {
  EventSource: EventSourceConstructor;
  /** The events URL for the frames after `after`. */
  url(after: number): string;
  probe(): Promise<ApiError | null>;
}

export function eventSourceTransport(options: EventSourceTransportOptions): Transport {
  return (after: number, events: TransportEvents) => {
    let finished = false;
    let cancelled = false;
    let opened = false;
    const source = new options.EventSource(options.url(after));

    const stop = () => {
      finished = true;
      try {
        source.close();
      } catch {
        // Already closed.
      }
    };
    const onData = (event: { data: unknown }) => {
      if (!finished && typeof event.data === 'string') events.message(event.data);
    };

    source.addEventListener('open', () => {
      if (finished) return;
      opened = true;
      events.open();
    });
    source.addEventListener('frame', onData);
    source.addEventListener('message', onData);
    source.addEventListener('error', () => {
      if (finished) return;
      stop();
      if (opened) {
        events.closed({ error: new Error('the event stream failed') });
        return;
      }
      const report = (why: Parameters<TransportEvents['closed']>[0]) => {
        if (!cancelled) events.closed(why);
      };
      void options.probe().then(
        (fatal) => report(fatal ? { fatal } : { error: new Error('the event stream failed before it opened') }),
        (error: unknown) => report({ error }),
      );
    });

    return {
      close: () => {
        cancelled = true;
        stop();
      },
    };
  };
}
