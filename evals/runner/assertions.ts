/**
 * Checks one assertion of a case against the recorded log: null when it holds, else the failure in
 * words a reader of the summary understands without the suite open (what was expected, what came).
 */
import { type Schema, Validator } from '@cfworker/json-schema';
import { finalJson } from './final-json.js';
import { partialMatch } from './partial-match.js';
import type { EvalAssertion, EvalLog, RecordedToolCall } from './suite.js';

/** How much of the final text a failure quotes. */
const QUOTE_CHARS = 160;

export function quote(text: string): string {
  const cut = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
  return JSON.stringify(cut);
}

function calledWith(calls: RecordedToolCall[], tool: string, args: Record<string, unknown> | undefined) {
  return calls.filter((call) => call.name === tool && (args === undefined || partialMatch(call.arguments, args)));
}

function describeCalls(calls: RecordedToolCall[], tool: string): string {
  const same = calls.filter((call) => call.name === tool);
  if (same.length === 0) {
    const names = [...new Set(calls.map((call) => call.name))];
    return names.length === 0 ? 'no tool was called' : `tools called: ${names.join(', ')}`;
  }
  return `its calls had ${same.map((call) => JSON.stringify(call.arguments)).join(', ')}`;
}

function schemaFailure(schema: Record<string, unknown>, text: string): string | null {
  const parsed = finalJson(text);
  if (!parsed.ok) return `json_schema: ${parsed.why}: ${quote(text)}`;
  try {
    const result = new Validator(schema as Schema, '2020-12', false).validate(parsed.value);
    if (result.valid) return null;
    const details = result.errors
      .slice(0, 3)
      .map((unit) => `${unit.instanceLocation || '#'}: ${unit.error}`)
      .join('; ');
    return `json_schema: the final answer does not match the schema (${details})`;
  } catch (error) {
    return `json_schema: the schema could not be used (${(error as Error).message})`;
  }
}

async function customFailure(assertion: Extract<EvalAssertion, { kind: 'custom' }>, log: EvalLog) {
  const label = assertion.name ?? 'custom';
  try {
    const verdict = await assertion.check(log);
    if (verdict === true) return null;
    return typeof verdict === 'string' ? `${label}: ${verdict}` : `${label}: returned ${typeof verdict}, not true`;
  } catch (error) {
    return `${label}: threw ${(error as Error)?.message ?? String(error)}`;
  }
}

/** Null when `assertion` holds for `log`, else why not. */
export async function failureOf(assertion: EvalAssertion, log: EvalLog): Promise<string | null> {
  const text = log.finalText;
  switch (assertion.kind) {
    case 'contains': {
      const found = assertion.ignoreCase
        ? text.toLowerCase().includes(assertion.text.toLowerCase())
        : text.includes(assertion.text);
      return found ? null : `contains: ${quote(assertion.text)} not in the final text ${quote(text)}`;
    }
    case 'matches': {
      const { pattern } = assertion;
      const regex =
        pattern instanceof RegExp
          ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
          : new RegExp(pattern, assertion.flags);
      return regex.test(text)
        ? null
        : `matches: /${regex.source}/${regex.flags} does not match the final text ${quote(text)}`;
    }
    case 'json_schema':
      return schemaFailure(assertion.schema, text);
    case 'tool_called': {
      if (calledWith(log.toolCalls, assertion.tool, assertion.args).length > 0) return null;
      const wanted = assertion.args ? ` with ${JSON.stringify(assertion.args)}` : '';
      return `tool_called: ${assertion.tool}${wanted} was not called (${describeCalls(log.toolCalls, assertion.tool)})`;
    }
    case 'tool_not_called': {
      const calls = calledWith(log.toolCalls, assertion.tool, assertion.args);
      if (calls.length === 0) return null;
      const wanted = assertion.args ? ` with ${JSON.stringify(assertion.args)}` : '';
      return `tool_not_called: ${assertion.tool}${wanted} was called ${calls.length} time(s), first with ${JSON.stringify(calls[0]?.arguments)}`;
    }
    case 'custom':
      return customFailure(assertion, log);
  }
}
