/**
 * The checks a suite's case passes before it runs. A suite is TypeScript, but esbuild strips types
 * without checking them, so a case can arrive in any shape: each problem names the field (`agent`,
 * `assertions[2].pattern`) and the case fails alone while the others run.
 */
import type { EvalCase } from './suite.js';

export type CaseCheck = { ok: true; evalCase: EvalCase } | { ok: false; problems: string[] };

const KINDS = ['contains', 'matches', 'json_schema', 'tool_called', 'tool_not_called', 'custom'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegExp);

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** What to call a case in messages: its name, or its place in the suite when it has none. */
export function caseLabel(value: unknown, index: number): string {
  const name = isObject(value) ? value.name : undefined;
  return nonEmpty(name) ? name : `#${index + 1} (no name)`;
}

function assertionProblems(assertion: unknown, at: string): string[] {
  if (!isObject(assertion)) return [`${at}: must be an object with a kind`];
  const { kind } = assertion;
  if (typeof kind !== 'string' || !KINDS.includes(kind)) {
    const said = typeof kind === 'string' ? JSON.stringify(kind) : `(${typeof kind})`;
    return [`${at}.kind: unknown assertion kind ${said} (one of ${KINDS.join(', ')})`];
  }
  switch (kind) {
    case 'contains':
      return nonEmpty(assertion.text) ? [] : [`${at}.text: must be a non-empty string`];
    case 'matches':
      return patternProblems(assertion.pattern, assertion.flags, at);
    case 'json_schema':
      return isObject(assertion.schema) ? [] : [`${at}.schema: a JSON schema must be an object`];
    case 'tool_called':
    case 'tool_not_called': {
      const problems = nonEmpty(assertion.tool) ? [] : [`${at}.tool: must be a tool name`];
      if (assertion.args !== undefined && !isObject(assertion.args)) problems.push(`${at}.args: must be an object`);
      return problems;
    }
    default:
      return typeof assertion.check === 'function' ? [] : [`${at}.check: must be a function of the log`];
  }
}

function patternProblems(pattern: unknown, flags: unknown, at: string): string[] {
  if (pattern instanceof RegExp) return [];
  if (typeof pattern !== 'string') return [`${at}.pattern: must be a RegExp or its source text`];
  if (flags !== undefined && typeof flags !== 'string') return [`${at}.flags: must be a string`];
  try {
    new RegExp(pattern, flags as string | undefined);
    return [];
  } catch (error) {
    return [`${at}.pattern: bad regular expression (${(error as Error).message})`];
  }
}

function listProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { messages, assertions } = value;
  if (!Array.isArray(messages) || messages.length === 0) problems.push('messages: at least one user message');
  else {
    messages.forEach((message, i) => {
      if (!nonEmpty(message)) problems.push(`messages[${i}]: must be a non-empty string`);
    });
  }
  if (!Array.isArray(assertions)) problems.push('assertions: must be a list (it may be empty)');
  else {
    assertions.forEach((assertion, i) => {
      problems.push(...assertionProblems(assertion, `assertions[${i}]`));
    });
  }
  return problems;
}

function fieldProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (!nonEmpty(value.name)) problems.push('name: must be a non-empty string');
  if (value.agent === undefined) problems.push('agent: missing (the name of the agent that runs the thread)');
  else if (!nonEmpty(value.agent)) problems.push('agent: must be the name of the agent that runs the thread');
  const { variables, timeout } = value;
  if (variables !== undefined && !isObject(variables)) problems.push('variables: must be an object of strings');
  if (isObject(variables)) {
    for (const [name, text] of Object.entries(variables)) {
      if (typeof text !== 'string') problems.push(`variables.${name}: must be a string`);
    }
  }
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))) {
    problems.push('timeout: must be a positive number of seconds');
  }
  return [...problems, ...listProblems(value)];
}

/** Checks one case; `names` holds the names seen before it, so a repeated name is refused. */
export function checkCase(value: unknown, names: Set<string>): CaseCheck {
  if (!isObject(value)) return { ok: false, problems: ['the case must be an object'] };
  const problems = fieldProblems(value);
  if (nonEmpty(value.name)) {
    if (names.has(value.name)) problems.push('name: another case of the suite has this name');
    names.add(value.name);
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, evalCase: value as unknown as EvalCase };
}
