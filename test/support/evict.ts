/**
 * Evicts one Durable Object as the platform does when it is idle: its in-memory state is gone and
 * the next request or alarm meets a new instance over the same storage. Tests use it between the
 * steps of a waiting thread, where nothing is in flight.
 */
import { runInDurableObject } from 'cloudflare:test';

const REASON = 'evicted by a test';

export async function evictDurableObject(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
    state.abort(REASON);
  }).catch((error: unknown) => {
    if (!String(error).includes(REASON)) throw error;
  });
}
