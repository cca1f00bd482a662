/**
 * How the Worker reaches a thread: its Durable Object is named by the thread's UUID.
 */
import type { RuntimeEnv } from './env.js';

export function threadStub(env: RuntimeEnv, threadId: string) {
  return env.THREADS.get(env.THREADS.idFromName(threadId));
}
