/**
 * Ends a paused step without running it (EXE-5 stop while waiting): every call still pending gets
 * an error tool message, so the log stays well-formed and the model learns what happened.
 */
import type { Message } from '../../spec/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import { pendingToolCalls } from './turn-log.js';

export function cancelPendingCalls(store: ThreadStore, emit: FrameSink, reason: string): Message[] {
  const messages: Message[] = [];
  for (const call of pendingToolCalls(store.messages())) {
    for (const wait of store.interactions(call.id)) {
      if (!wait.answered) store.answerInteraction(call.id, wait.kind, { cancelled: true });
    }
    const envelope = { type: 'error' as const, error_text: reason, metadata: { duration_ms: 0 } };
    const message = store.append({
      role: 'tool',
      content: `Error: ${reason}`,
      name: call.function.name,
      tool_call_id: call.id,
      tool_status: 'error',
      envelope,
    });
    emit({ type: 'message', message });
    messages.push(message);
  }
  return messages;
}
