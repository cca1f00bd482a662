/**
 * The WebSocket transport: `/api/threads/:id/stream?token=<key>&after=<seq>`, each text message one
 * frame. The heartbeat: `ping` is sent on open and every `heartbeatMs`, and the thread answers
 * `pong` without waking; a ping still unanswered when the next is due means the socket is dead (a
 * half-open TCP connection never reports closing), so it is abandoned and reported closed. A socket
 * that closes before it ever opened may have been refused (bad key, no such thread): browsers hide
 * the status of a refused upgrade, so `probe` asks the API why.
 */
import type { ApiError } from './api-error.js';
import type { WebSocketConstructor, WebSocketLike } from './options.js';
import type { Transport, TransportEvents } from './transport.js';

export interface WebSocketTransportOptions {
  WebSocket: WebSocketConstructor;
  /** The socket URL for the frames after `after`. */
  url(after: number): string;
  heartbeatMs: number;
  /** The permanent error that refuses this stream (401, 404), or null when retrying may help. */
  probe(): Promise<ApiError | null>;
}

const CONNECTING = 0;
const OPEN = 1;
const decoder = new TextDecoder();

/** A message's text; binary messages are decoded as UTF-8, anything else is not a frame. */
function textOf(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return decoder.decode(data);
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  return null;
}

/** Closes a socket we no longer listen to; `terminate` (the `ws` package) drops it without a handshake. */
function abandon(socket: WebSocketLike): void {
  try {
    const terminate = (socket as { terminate?: () => void }).terminate;
    if (typeof terminate === 'function') terminate.call(socket);
    else if (socket.readyState === CONNECTING || socket.readyState === OPEN) socket.close(1000, 'client closed');
  } catch {
    // Closing a socket that is already failing may throw; it is gone either way.
  }
}

export function webSocketTransport(options: WebSocketTransportOptions): Transport {
  return (after: number, events: TransportEvents) => {
    let finished = false;
    let cancelled = false;
    let opened = false;
    let awaitingPong = false;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const socket = new options.WebSocket(options.url(after));

    /** Stops listening; reports `closed` with `why` unless the stream itself asked to close. */
    const finish = (why: Parameters<TransportEvents['closed']>[0] | null) => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      abandon(socket);
      if (why) events.closed(why);
    };

    const ping = () => {
      try {
        socket.send('ping');
        awaitingPong = true;
      } catch (error) {
        finish({ error });
      }
    };

    socket.addEventListener('open', () => {
      if (finished) return;
      opened = true;
      events.open();
      ping();
      heartbeat = setInterval(() => {
        if (awaitingPong) finish({ error: new Error(`no pong within ${options.heartbeatMs} ms: the socket is dead`) });
        else ping();
      }, options.heartbeatMs);
    });

    socket.addEventListener('message', (event) => {
      if (finished) return;
      const text = textOf(event.data);
      if (text === null) return;
      if (text === 'pong') {
        awaitingPong = false;
        events.alive();
        return;
      }
      events.message(text);
    });

    // Every failure ends in `close`; `error` carries nothing more a client could use.
    socket.addEventListener('error', () => {});

    socket.addEventListener('close', () => {
      if (finished) return;
      if (opened) {
        finish({ error: new Error('the socket closed') });
        return;
      }
      finished = true;
      clearInterval(heartbeat);
      const report = (why: Parameters<TransportEvents['closed']>[0]) => {
        if (!cancelled) events.closed(why);
      };
      void options.probe().then(
        (fatal) => report(fatal ? { fatal } : { error: new Error('the socket closed before it opened') }),
        (error: unknown) => report({ error }),
      );
    });

    return {
      close: () => {
        cancelled = true;
        finish(null);
      },
    };
  };
}
