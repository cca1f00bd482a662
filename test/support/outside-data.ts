/**
 * Reading tool results marked as outside data (web pages, search results, MCP answers): the runtime
 * puts them after a notice, between delimiters with a random id (src/engine/execute/untrusted-output.ts).
 */
import { expect } from 'vitest';

const MARKED = /^\[The output of [^\]]+\]\n<<<untrusted ([0-9a-f]{24})>>>\n([\s\S]*)\n<<<end untrusted \1>>>$/;

/** The text inside a marked result; fails the test when the result is not marked. */
export function outsideData(content: string | null | undefined): string {
  const match = MARKED.exec(content ?? '');
  expect(match, `not marked as outside data: ${content}`).not.toBeNull();
  return match?.[2] ?? '';
}

/** A matcher for a result marked as outside data whose text is exactly `text`. */
export function markedAs(text: string) {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return expect.stringMatching(
    new RegExp(`^\\[The output of [^\\]]+\\]\\n<<<untrusted ([0-9a-f]{24})>>>\\n${escaped}\\n<<<end untrusted \\1>>>$`),
  );
}
