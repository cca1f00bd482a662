/**
 * Types for scripted-server.mjs: the handle every local protocol server (openai-server.mjs,
 * google-server.mjs) returns, whatever its replies and recorded requests look like. Kept free of
 * Node types so any tsconfig can use it.
 */

export interface ScriptedServer<Reply, Recorded> {
  /** The origin, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: Recorded[];
  /** Answers for the next requests, in order. */
  enqueue(...replies: Reply[]): void;
  /** How many queued replies are still unused. */
  readonly pending: number;
  /** Empties the queue and the request log. */
  reset(): void;
  /** Stops the server, cutting any open (e.g. stalled) streams. */
  close(): Promise<void>;
}
