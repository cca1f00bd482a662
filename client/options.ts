/**
 * What `createClient` takes: where the API is, the key, and the platform pieces the client uses —
 * `fetch`, a WebSocket constructor, an EventSource constructor — each replaceable because not every
 * platform has them (Node 20 has no global WebSocket; tests record or cut connections through them).
 * The socket and event-source shapes are the few members the client touches, so the browser's,
 * the `ws` package's and a Worker's classes all fit.
 */

/** A `fetch` as browsers, Node and Workers provide it. */
export type FetchLike = (input: Request | string, init?: RequestInit) => Promise<Response>;

/** The part of a WebSocket the client uses. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** The part of an EventSource the client uses. */
export interface EventSourceLike {
  close(): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void;
}

export type EventSourceConstructor = new (url: string) => EventSourceLike;

export interface ClientOptions {
  /** The Worker's origin, optionally with a path prefix: `http://localhost:8787`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` (and as `?token=` on the WebSocket, which cannot carry headers). */
  apiKey?: string;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Default: the global `WebSocket` (browsers, Workers, Node 22+); in Node 20 pass `ws`'s. */
  WebSocket?: WebSocketConstructor;
  /**
   * Used by the `sse` transport instead of reading the event stream with `fetch`. An EventSource
   * cannot send headers: the key travels as `?token=` and the position as `?after=`, so it suits a
   * deployment whose events route accepts those (or a same-origin proxy that adds the key).
   */
  EventSource?: EventSourceConstructor;
}

/** The platform pieces resolved once, for the parts of the client that need them. */
export interface Platform {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  WebSocket: WebSocketConstructor | undefined;
  EventSource: EventSourceConstructor | undefined;
}

export function resolvePlatform(options: ClientOptions): Platform {
  const given = options.fetch;
  const global = globalThis as { fetch?: FetchLike; WebSocket?: WebSocketConstructor };
  if (!given && typeof global.fetch !== 'function') {
    throw new TypeError('no fetch: pass one as the `fetch` option');
  }
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    // Called through a closure: a Worker's fetch refuses to run detached from globalThis.
    fetch: given ?? ((input, init) => (global.fetch as FetchLike)(input, init)),
    WebSocket: options.WebSocket ?? global.WebSocket,
    EventSource: options.EventSource,
  };
}

/** The `Authorization` header for the key, if there is one. */
export function authHeaders(platform: Platform): Record<string, string> {
  return platform.apiKey === undefined ? {} : { authorization: `Bearer ${platform.apiKey}` };
}
