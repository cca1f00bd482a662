/**
 * `client.stream(id, options)`: picks the transport — the WebSocket when the platform has one (or
 * one was passed), Server-Sent Events otherwise or when asked — builds its URLs, and hands it to
 * the reconnecting stream.
 */
import { ApiError, isPermanent } from './api-error.js';
import { DEFAULT_MAX_BACKOFF_MS } from './backoff.js';
import { eventSourceTransport } from './eventsource-transport.js';
import { authHeaders, type Platform } from './options.js';
import { sseTransport } from './sse-transport.js';
import { ReconnectingStream, type ThreadStream } from './thread-stream.js';
import type { Transport } from './transport.js';
import { webSocketTransport } from './websocket-transport.js';

export interface StreamOptions {
  /** Deliver the frames after this seq; default 0: every frame of the thread, then live ones. */
  after?: number;
  /** Default `websocket` where a WebSocket constructor is available, else `sse`. */
  transport?: 'websocket' | 'sse';
  /**
   * WebSocket: a `ping` every `heartbeatMs`, and a ping unanswered by the next one is a dead socket.
   * SSE: a stream silent for three times this (no frame, no heartbeat comment) is dead. Default 20 s.
   */
  heartbeatMs?: number;
  /** The longest wait between reconnect attempts; default 30 s. */
  maxBackoffMs?: number;
  /** The first wait after a drop; default 250 ms. */
  initialBackoffMs?: number;
}

export const DEFAULT_HEARTBEAT_MS = 20_000;

/**
 * The thread's route under the base URL: `/api/threads/<id><suffix>`. A relative base URL (a page
 * served by the Worker itself) is resolved against the page's location.
 */
function threadUrl(platform: Platform, id: string, suffix: string): URL {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  return new URL(`${platform.baseUrl}/api/threads/${encodeURIComponent(id)}${suffix}`, page);
}

function transportFor(
  platform: Platform,
  id: string,
  options: StreamOptions,
  probe: () => Promise<ApiError | null>,
): Transport {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  if (!(heartbeatMs > 0)) throw new RangeError(`heartbeatMs must be positive, not ${heartbeatMs}`);
  const kind = options.transport ?? (platform.WebSocket ? 'websocket' : 'sse');
  if (kind === 'websocket') {
    const WebSocket = platform.WebSocket;
    if (!WebSocket) throw new TypeError('no WebSocket: pass a constructor as the `WebSocket` option (in Node 20, ws)');
    return webSocketTransport({
      WebSocket,
      heartbeatMs,
      probe,
      url: (after) => {
        const url = threadUrl(platform, id, '/stream');
        url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
        if (platform.apiKey !== undefined) url.searchParams.set('token', platform.apiKey);
        url.searchParams.set('after', String(after));
        return url.href;
      },
    });
  }
  if (platform.EventSource) {
    const EventSource = platform.EventSource;
    return eventSourceTransport({
      EventSource,
      probe,
      url: (after) => {
        const url = threadUrl(platform, id, '/events');
        url.searchParams.set('after', String(after));
        if (platform.apiKey !== undefined) url.searchParams.set('token', platform.apiKey);
        return url.href;
      },
    });
  }
  return sseTransport({
    fetch: platform.fetch,
    url: threadUrl(platform, id, '/events').href,
    headers: authHeaders(platform),
    idleMs: heartbeatMs * 3,
  });
}

/**
 * Opens the stream of thread `id`. `probe` tells a refused connection (whose status a WebSocket
 * hides) from a dropped one by asking the API about the thread.
 */
export function openStream(
  platform: Platform,
  id: string,
  options: StreamOptions,
  describe: (id: string) => Promise<unknown>,
): ThreadStream {
  // A base URL no stream can be opened under is the caller's mistake: said now, not retried.
  threadUrl(platform, id, '');
  const probe = async (): Promise<ApiError | null> => {
    try {
      await describe(id);
      return null;
    } catch (error) {
      return error instanceof ApiError && isPermanent(error.status) ? error : null;
    }
  };
  return new ReconnectingStream(transportFor(platform, id, options, probe), {
    after: options.after ?? 0,
    maxMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    ...(options.initialBackoffMs === undefined ? {} : { initialMs: options.initialBackoffMs }),
  });
}
