/**
 * A regular tool's output schema (OUT-1, seed 004): a successful result of a tool that declares
 * `outputSchema` must match it, as client and human-in-the-loop tools' outputs already must (KIND-4).
 * A result that does not match is an error result naming the failing fields, so the model learns
 * what was wrong instead of reading a value its tool promised never to return.
 *
 * `result` may be the value itself or its JSON text: a string is checked as it is first, then, when
 * that fails and it parses, as the JSON it holds (whose fields an error then names). What passes is
 * kept as the schema parsed it.
 */
import type { z } from 'zod';
import type { ToolResult } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';

function parsedJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The result as the schema accepts it, or an error result naming the fields that do not match. */
export function checkOutput(schema: z.ZodType | undefined, result: ToolResult<unknown>): ToolResult<unknown> {
  if (!schema || result.status !== 'success') return result;
  let checked = schema.safeParse(result.result);
  if (!checked.success && typeof result.result === 'string') {
    // JSON text: the value it holds is what the tool meant, and its fields are what to name.
    const parsed = parsedJson(result.result);
    if (parsed.ok) checked = schema.safeParse(parsed.value);
  }
  if (!checked.success) {
    return {
      status: 'error',
      error: `The result does not match the tool's output schema: ${describeIssues(checked.error)}`,
    };
  }
  const value = checked.data;
  return { ...result, result: typeof value === 'string' ? value : JSON.stringify(value) };
}
