/**
 * Messages queued while a turn runs (SUB-7), delivered between its steps in arrival order. A message
 * marked `after_turn` (a parent's message to a resumable subagent, SUB-4) waits until the turn is
 * over and then starts one of its own: each gets its own answer.
 */
import { lastVisible } from '../conversation/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';

/** Appends the queued messages that may be delivered now; returns whether it appended any. */
export function deliverQueued(store: ThreadStore, emit: FrameSink, queue = store.drainQueue()): boolean {
  if (queue.length === 0) return false;
  const last = lastVisible(store.messages(), true);
  let idle = !last || last.role === 'assistant' || last.role === 'system';
  for (const [index, queued] of queue.entries()) {
    if (queued.metadata?.after_turn === true) {
      if (!idle) {
        // Sent back in the same order: nothing can be queued meanwhile, the store is synchronous.
        for (const rest of queue.slice(index)) store.enqueue(rest);
        return index > 0;
      }
      idle = false;
    }
    const message = store.append({
      id: queued.id,
      role: queued.role,
      content: queued.content,
      silent: queued.silent ?? false,
      metadata: queued.metadata ?? null,
    });
    emit({ type: 'message', message });
  }
  return queue.length > 0;
}
