/**
 * `--from-thread <id>`: a recorded thread turned into a case to paste into a suite — its agent, its
 * top-level user messages in order, and assertions that its final answer's first sentence is there
 * again and that the tools it called are called again. Every string is written as an escaped literal:
 * the text comes from a thread (a model, a user), and pasted into source code it must read as what it
 * is, so quotes, line breaks, terminal controls and bidirectional overrides are all escaped.
 */
import type { Message } from '../../client/index.js';
import { finalTextOf, toolCallsOf } from './api-target.js';

/** Characters JSON.stringify leaves as they are that a terminal or an editor would act on. */
const INVISIBLE = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** A TypeScript string literal of `text` with nothing hidden in it. */
export function literal(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The longest a sentence taken from the answer may be: a shorter one is likelier to recur. */
const MAX_SENTENCE = 120;

/** The first sentence of `text`: up to its first `.`, `!`, `?` or `:` before a space or line end, on its first line. */
export function firstSentence(text: string): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '';
  const end = /[.!?:](?=\s|$)/.exec(line);
  const sentence = (end ? line.slice(0, end.index + 1) : line).trim();
  if (sentence.length <= MAX_SENTENCE) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE);
  const space = cut.lastIndexOf(' ');
  return space > MAX_SENTENCE / 2 ? cut.slice(0, space) : cut;
}

export interface RecordedThread {
  id: string;
  agent: string;
  messages: Message[];
}

export function caseFromThread(thread: RecordedThread): string {
  const said = thread.messages
    .filter((m) => m.role === 'user' && m.depth === 0 && typeof m.content === 'string' && m.content.trim() !== '')
    .map((m) => m.content as string);
  if (said.length === 0) throw new Error(`thread ${thread.id} has no user message to replay`);
  const first = (said[0] as string).replace(/\s+/g, ' ').trim();
  const name = `from thread ${thread.id.slice(0, 8)}: ${first.length > 40 ? `${first.slice(0, 40)}…` : first}`;
  const assertions: string[] = [];
  const sentence = firstSentence(finalTextOf(thread.messages));
  if (sentence !== '') assertions.push(`{ kind: 'contains', text: ${literal(sentence)} }`);
  const tools = [...new Set(toolCallsOf(thread.messages).map((call) => call.name))];
  for (const tool of tools) assertions.push(`{ kind: 'tool_called', tool: ${literal(tool)} }`);
  return [
    `// Recorded in thread ${literal(thread.id)}: ${said.length} user message(s).`,
    '{',
    `  name: ${literal(name)},`,
    `  agent: ${literal(thread.agent)},`,
    '  messages: [',
    ...said.map((content) => `    ${literal(content)},`),
    '  ],',
    '  assertions: [',
    ...assertions.map((assertion) => `    ${assertion},`),
    '  ],',
    '},',
  ].join('\n');
}
