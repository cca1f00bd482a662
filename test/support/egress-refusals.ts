/**
 * The one way the egress tests read a refusal, in Node and in workerd: the message names
 * the URL in its canonical form and the host, gives the corpus case's reason, and offers
 * EGRESS_ALLOW_HOSTS exactly when listing the host could help.
 */
import { expect } from 'vitest';
import type { RefusedUrlCase } from './hostile-corpus.js';

export const ALLOW_HINT = ' (set EGRESS_ALLOW_HOSTS to allow a development host)';

/** Asserts that `message` (after `prefix`, e.g. "Error: web_fetch: ") is the refusal of `item`. */
export function expectRefusal(message: string, item: RefusedUrlCase, prefix = ''): void {
  expect(message.startsWith(prefix), `${message} should start with ${prefix}`).toBe(true);
  const refusal = message.slice(prefix.length);
  if (item.host === null) {
    expect(refusal, item.label).toMatch(item.reason);
    return;
  }
  const head = `${new URL(item.url).href} is refused: ${item.host} is `;
  expect(refusal.startsWith(head), `${refusal} should start with ${head}`).toBe(true);
  const rest = refusal.slice(head.length);
  const hint = item.neverAllowed || /empty label/.test(rest) ? '' : ALLOW_HINT;
  if (hint === '') expect(rest, item.label).not.toContain('EGRESS_ALLOW_HOSTS');
  else expect(rest.endsWith(hint), `${rest} should end with the hint`).toBe(true);
  expect(rest.slice(0, rest.length - hint.length), item.label).toMatch(item.reason);
}
