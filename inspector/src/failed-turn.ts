/**
 * A failed turn as the log shows it: where it happened, with the error's own text (which names the
 * cause: the model's answer, the host that could not be reached, the limit) and what the user can
 * do next. The text comes from the server and is shown as text, never as markup.
 */
import { h } from './dom.js';

/** What to do after each kind of failure; an unknown code gets the general advice. */
const ADVICE: Record<string, string> = {
  turn_failed:
    'The model did not answer. Check that it can be reached and that its key and name are right, then send your message again.',
  response_format:
    'The model answered in the wrong shape. Send your message again, or loosen the response format the prompt asks for.',
  step_limit: 'The turn used all the model steps it is allowed. Send a message such as "continue" to carry on.',
  budget_exceeded: "The thread's token budget is spent. Raise the budget before sending another message.",
  quota_exceeded:
    "Today's model spend quota (tokens or cost, UTC day) is used up. Wait for the next day, or ask an admin to raise the limit.",
  context_overflow:
    "The conversation no longer fits in the model's context. Start a new thread, or use a model with a larger context.",
};

/** Codes of turns that ended at a limit rather than failing. */
const LIMITS = new Set(['step_limit', 'budget_exceeded', 'quota_exceeded', 'context_overflow']);

const GENERAL_ADVICE = 'Send your message again; if it fails the same way, the text above says what to fix.';

/** The advice for an error code. */
export function adviceFor(code: string): string {
  return Object.hasOwn(ADVICE, code) ? (ADVICE[code] as string) : GENERAL_ADVICE;
}

/** The log entry of a failed turn (or one that hit a limit). */
export function failedTurnEntry(code: string, message: string): HTMLElement {
  return h(
    'article',
    { class: 'entry entry-error', role: 'alert', 'aria-label': 'Failed turn', 'data-code': code },
    h(
      'header',
      {},
      h('strong', {}, LIMITS.has(code) ? 'The turn hit a limit' : 'The turn failed'),
      h('code', {}, code),
    ),
    h('p', { class: 'error-text failure-text' }, message),
    h('p', { class: 'advice' }, h('strong', {}, 'What to do: '), adviceFor(code)),
  );
}
