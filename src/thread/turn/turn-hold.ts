/**
 * A thread told to wait for a message (FORK-2, FORK-6): a fork, or a thread rewound, whose log ends
 * where a turn would go on (a user message, a tool result) runs nothing until it is sent one. The
 * hold is the id of the log's last message when it was made, kept in the thread's storage: it holds
 * across every alarm (an index retry, an effect, a schedule) and an eviction, and lets go by itself
 * once anything is added to the log.
 */
import type { Message } from '../../spec/index.js';
import type { ThreadMeta } from '../storage/index.js';

const HOLD_KEY = 'turn.held_at';

/** Holds the thread where its log ends now. */
export function holdTurn(meta: ThreadMeta, log: readonly Message[]): void {
  meta.set(HOLD_KEY, log.at(-1)?.id ?? null);
}

/** Whether the log still ends where the thread was told to wait. */
export function turnHeld(meta: ThreadMeta | undefined, log: readonly Message[]): boolean {
  const last = log.at(-1);
  return last !== undefined && meta?.get<string>(HOLD_KEY) === last.id;
}
