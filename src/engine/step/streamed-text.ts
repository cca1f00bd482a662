/**
 * Model text streamed to clients (`message_delta`) before its message is stored. If the step never
 * stores it — the thread restarted mid-stream and runs the step again under a new id, or the model
 * failed after some text — a `message_abandoned` frame tells clients to drop that text (THR-2,
 * THR-3). The id of the step streaming is kept in the thread's store from its first delta to its
 * message, so a restarted thread knows which text to abandon.
 */
import type { FrameSink, ThreadStore } from '../ports/index.js';

const STREAMING_KEY = 'turn.streaming_message';

/** At a step's first text delta. */
export function streamingStarted(store: ThreadStore, messageId: string): void {
  store.setValue(STREAMING_KEY, messageId);
}

/** Once the step's message is stored (its text belongs to it now). */
export function streamingEnded(store: ThreadStore): void {
  store.setValue(STREAMING_KEY, undefined);
}

/** Abandons the text of a step that streamed but never stored its message. */
export function abandonStreamedText(store: ThreadStore, emit: FrameSink): void {
  const messageId = store.getValue(STREAMING_KEY);
  if (typeof messageId !== 'string') return;
  emit({ type: 'message_abandoned', message_id: messageId });
  streamingEnded(store);
}
