/**
 * Messages queued while a turn runs (SUB-7), delivered between its steps in arrival order. A message
 * marked `after_turn` (a parent's message to a resumable subagent, SUB-4) waits until the turn is
 * over and then starts one of its own: each gets its own answer. A call queued with
 * `state.queueTool` is delivered as a step making that call.
 */
import { lastVisible } from '../conversation/index.js';
import type { FrameSink, NewMessage, QueuedMessage, ThreadStore } from '../ports/index.js';
import { QUEUED_TOOL_KEY } from '../state/index.js';

/**
 * A call queued with `state.queueTool`, delivered as an assistant step that makes it: the loop then
 * runs it as it runs a model's call, every check included, and the model sees call and result.
 */
function queuedCall(queued: QueuedMessage): NewMessage {
  const call = queued.metadata?.[QUEUED_TOOL_KEY] as { id: string; name: string; arguments: string };
  return {
    id: queued.id,
    role: 'assistant',
    content: null,
    tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    metadata: { [QUEUED_TOOL_KEY]: call.name },
  };
}

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
    const call = queued.metadata?.[QUEUED_TOOL_KEY] !== undefined;
    const message = store.append(
      call
        ? queuedCall(queued)
        : {
            id: queued.id,
            role: queued.role,
            content: queued.content,
            silent: queued.silent ?? false,
            metadata: queued.metadata ?? null,
            ...(queued.attachments?.length ? { attachments: queued.attachments } : {}),
          },
    );
    emit({ type: 'message', message });
    if (call) {
      // Nothing may come between a call and its result: the rest waits until the call has run.
      for (const rest of queue.slice(index + 1)) store.enqueue(rest);
      return true;
    }
  }
  return queue.length > 0;
}
