/**
 * From a span to the log entry it belongs to: a model step's assistant message
 * (`data-message-id`), a tool call's entry (`data-call-id`, which also shows its result message).
 * Showing it scrolls the log to it and highlights it until another is shown.
 */
import { messageIdOf, type Span, toolCallIdOf } from './timeline-spans.js';

const HIGHLIGHT = 'highlighted';

/** The element of the log showing what `span` made, if the log shows it. */
export function logEntryOf(log: HTMLElement, span: Span): HTMLElement | null {
  const callId = toolCallIdOf(span);
  if (callId) {
    const call = log.querySelector<HTMLElement>(`[data-call-id="${CSS.escape(callId)}"]`);
    if (call) return call;
  }
  const messageId = messageIdOf(span);
  if (!messageId) return null;
  return log.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
}

/** Scrolls to `entry` and marks it, taking the mark off whichever entry had it. */
export function showLogEntry(log: HTMLElement, entry: HTMLElement): void {
  for (const marked of log.querySelectorAll(`.${HIGHLIGHT}`)) marked.classList.remove(HIGHLIGHT);
  entry.classList.add(HIGHLIGHT);
  entry.tabIndex = -1;
  entry.scrollIntoView({ block: 'center', behavior: 'smooth' });
  entry.focus({ preventScroll: true });
}
