/**
 * What a stream transport is to the stream that drives it: open a connection that delivers frame
 * texts after a position, report signs of life, and report exactly once that it is gone — why, and
 * whether trying again can help. The WebSocket, fetch event-stream and EventSource transports
 * implement it; reconnecting, ordering and de-duplication live above it, once.
 */
import type { ApiError } from './api-error.js';

export interface TransportEvents {
  /** The connection is established. */
  open(): void;
  /** One message's text: a frame's JSON, in the order the server sent it. */
  message(text: string): void;
  /** A sign of life that carries no frame (a pong, a heartbeat comment): the connection works. */
  alive(): void;
  /**
   * The connection is gone; called at most once, never after `Connection.close()`. With `fatal`,
   * reconnecting cannot succeed (a bad key, no such thread).
   */
  closed(why: { error?: unknown; fatal?: ApiError }): void;
}

export interface Connection {
  /** Tears the connection down without reporting `closed`. */
  close(): void;
}

/** Opens one connection delivering the frames after `after`. */
export type Transport = (after: number, events: TransportEvents) => Connection;
