/**
 * What the provider tests share: a local vendor server kept for a whole test file, the request they
 * send, a sleep that records the delays it was asked for, the rejection of a promise, a guard that
 * turns a hang into a failure, and answers whose bytes arrive in pieces the test chooses (byte
 * boundaries no server would pick), then end, fail as a dropped connection does, or stall.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ModelRequest } from '../../src/engine/ports/index.js';
import type { Sleep } from '../../src/providers/transport/index.js';

/** What `serverPerFile` needs of a local vendor server. */
interface LocalTestServer {
  reset(): void;
  close(): Promise<void>;
}

/**
 * A local vendor server for one test file: started before its tests, emptied of scripted replies and
 * recorded requests before each (so no test sees another's), closed after; `use` receives it once started.
 */
export function serverPerFile<Server extends LocalTestServer>(
  start: () => Promise<Server>,
  use: (server: Server) => void,
): void {
  let server: Server | undefined;
  beforeAll(async () => {
    server = await start();
    use(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
}

/** A request for `model`: a system prompt and one user message, unless `overrides` say otherwise. */
export function helloRequest(model: string, overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Hello' },
    ],
    tools: [],
    ...overrides,
  };
}

/** Long enough for any prompt stop; a provider still pending after it has hung. */
export const PROMPT_GUARD_MS = 2000;

export function recordingSleep(): { delays: number[]; sleep: Sleep } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
    },
  };
}

/** The rejection of `promise`; fails the test if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** Settles like `promise`, or rejects if it is still pending after `ms`: a hang fails instead of stalling the suite. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** How a body ends once its pieces are read: closed, failed as a dropped connection does, or never. */
export type BodyEnd = 'close' | 'fail' | 'stall';

/** A body that hands over `pieces` one read at a time, then ends as `end` says. */
export function pieceStream(pieces: (string | Uint8Array)[], end: BodyEnd = 'close'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const queue = pieces.map((piece) => (typeof piece === 'string' ? encoder.encode(piece) : piece));
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else if (end === 'fail') controller.error(new TypeError('terminated'));
      else if (end === 'stall') return new Promise<void>(() => {});
      else controller.close();
    },
  });
}

/** `text` as one piece per byte: every boundary a multi-byte character can be cut at. */
export function byteByByte(text: string): Uint8Array[] {
  return Array.from(new TextEncoder().encode(text), (byte) => Uint8Array.of(byte));
}

/** A fetch answering every call with a 200 whose body emits `pieces` one read at a time. */
export function streamFetch(pieces: (string | Uint8Array)[], calls: { count: number } = { count: 0 }): typeof fetch {
  return async () => {
    calls.count++;
    return new Response(pieceStream(pieces), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
