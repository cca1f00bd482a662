/**
 * The thread's scheduled effects as the engine sees them (the specification's Effects chapter): the
 * effects the application defines, and the durable queue of scheduled runs, kept by the thread (its
 * SQLite and its alarm). `state.scheduleEffect` and its siblings (state/effect-members.ts) work over it.
 */
import type { EffectDefinition } from '../../spec/index.js';

/** One scheduled run as the queue keeps it; times in milliseconds since the epoch. */
export interface QueuedEffect {
  id: string;
  name: string;
  args: Record<string, unknown>;
  dueAt: number;
  createdAt: number;
}

export interface EffectQueue {
  /** The effect registered as `name` (a packed `package/effect` name included), or undefined. */
  definition(name: string): EffectDefinition | undefined;
  /** Stores a run, due at `dueAt`, and sees that the thread's alarm comes for it; resolves its id. */
  schedule(name: string, args: Record<string, unknown>, dueAt: number): Promise<string>;
  /** The runs still waiting, `name`'s only when given, the soonest due first. */
  pending(name?: string): QueuedEffect[];
  /** How many runs are waiting. */
  waiting(): number;
  /** Cancels a waiting run: false when it is unknown or no longer waiting. */
  cancel(id: string): boolean;
}
