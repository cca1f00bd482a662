/**
 * What an eval suite is made of, and `defineEvalSuite`, the typed helper a suite file calls:
 * `export default defineEvalSuite({ cases: [...] })`. A case names an agent, the user messages sent
 * to a new thread one turn after another, and the assertions its recorded log must pass. This module
 * holds only types and the helper, so a suite bundles nothing of the runner.
 */
import type { Message, ThreadStatus, UsageTotals } from '../../client/index.js';

/** A call of a tool as the thread's log recorded it, at any depth (nested prompt runs included). */
export interface RecordedToolCall {
  id: string;
  name: string;
  /** The parsed arguments; the raw text when they are not valid JSON. */
  arguments: unknown;
  /** The tool message answering the call, or null when none was stored. */
  result: Message | null;
}

/** What a case's assertions are checked against: the thread's log once its last turn ended. */
export interface EvalLog {
  threadId: string;
  agent: string;
  /** The whole log, oldest first. */
  messages: Message[];
  /** The text of the last assistant message of the last turn (top level), or '' when it wrote none. */
  finalText: string;
  toolCalls: RecordedToolCall[];
  /** The thread's status after the last turn: `idle`, or `error`, `waiting`, ... */
  status: ThreadStatus;
  /** The thread's usage after the last turn. */
  usage: UsageTotals;
}

/** The final text contains `text` (case-sensitive unless `ignoreCase`). */
export interface ContainsAssertion {
  kind: 'contains';
  text: string;
  ignoreCase?: boolean;
}

/** The final text matches a regular expression: a RegExp, or its source text with optional `flags`. */
export interface MatchesAssertion {
  kind: 'matches';
  pattern: string | RegExp;
  flags?: string;
}

/**
 * The final answer, parsed as JSON, satisfies a JSON schema (draft 2020-12). The JSON is the whole
 * text, else the first fenced code block, else the span from the first `{` or `[` to its end.
 */
export interface JsonSchemaAssertion {
  kind: 'json_schema';
  schema: Record<string, unknown>;
}

/** A tool was called; with `args`, at least one call's arguments contain these (a partial match). */
export interface ToolCalledAssertion {
  kind: 'tool_called';
  tool: string;
  args?: Record<string, unknown>;
}

/** No call of the tool (with `args`: no call whose arguments contain these). */
export interface ToolNotCalledAssertion {
  kind: 'tool_not_called';
  tool: string;
  args?: Record<string, unknown>;
}

/** Any check of the log: `true` passes, a string is the failure. */
export interface CustomAssertion {
  kind: 'custom';
  /** Shown with a failure; default `custom`. */
  name?: string;
  check: (log: EvalLog) => true | string | Promise<true | string>;
}

export type EvalAssertion =
  | ContainsAssertion
  | MatchesAssertion
  | JsonSchemaAssertion
  | ToolCalledAssertion
  | ToolNotCalledAssertion
  | CustomAssertion;

export interface EvalCase {
  /** Unique in its suite: the summary, the JSON record and a baseline match cases by name. */
  name: string;
  agent: string;
  /** User messages, sent in order, each after the previous turn ended. */
  messages: string[];
  /** Thread variables at creation. */
  variables?: Record<string, string>;
  /** Seconds for the whole case; default `--timeout`. */
  timeout?: number;
  assertions: EvalAssertion[];
}

export interface EvalSuite {
  cases: EvalCase[];
}

/** Types a suite; what it returns is what it was given. */
export function defineEvalSuite(suite: EvalSuite): EvalSuite {
  return suite;
}
