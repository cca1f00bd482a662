/**
 * What the provider tests share: a sleep that records the delays it was asked for, the rejection of a
 * promise, a guard that turns a hang into a failure, and a fetch whose answer arrives in pieces the
 * test chooses (byte boundaries no server would pick).
 */
import type { Sleep } from '../../src/providers/transport/index.js';

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

/** A fetch answering every call with a 200 whose body emits `pieces` one read at a time. */
export function streamFetch(pieces: (string | Uint8Array)[], calls: { count: number } = { count: 0 }): typeof fetch {
  return async () => {
    calls.count++;
    const encoder = new TextEncoder();
    const queue = pieces.map((piece) => (typeof piece === 'string' ? encoder.encode(piece) : piece));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
