/**
 * What a failed validation answers (THR-5): the validators of the declared routes report here, and
 * the answers are the API's JSON errors — 400 `invalid_request` naming each issue for a body, a
 * query or a header, and 404 `thread_not_found` for a path whose thread id is not a UUID (such an id
 * cannot name a thread). A body field with a code of its own (FIELD_CODES) is refused with that code
 * when it is the only field at fault, so a client can tell which value to change.
 */
import type { Context, ValidationTargets } from 'hono';
import type { ZodError } from 'zod';
import { errorResponse, invalid } from './errors.js';

export type ValidationResult = { target: keyof ValidationTargets } & (
  | { success: true; data: unknown }
  | { success: false; error: ZodError }
);

const WHAT: Partial<Record<keyof ValidationTargets, string>> = {
  json: 'invalid body',
  query: 'invalid query',
  header: 'invalid headers',
};

/** Body fields refused with a code that names them (400), rather than `invalid_request`. */
const FIELD_CODES: Readonly<Record<string, string>> = { on_busy: 'invalid_on_busy' };

/** The field's own code when every issue is about that one field of a body. */
function fieldCode(target: keyof ValidationTargets, error: ZodError): string | undefined {
  if (target !== 'json') return undefined;
  const fields = new Set(error.issues.map((issue) => String(issue.path[0] ?? '')));
  const [field] = [...fields];
  return fields.size === 1 && field !== undefined ? FIELD_CODES[field] : undefined;
}

export function validationHook(result: ValidationResult, c: Context): Response | undefined {
  if (result.success) return undefined;
  if (result.target === 'param') {
    return errorResponse(c, { status: 404, code: 'thread_not_found', message: `no thread ${c.req.param('id')}` });
  }
  const refusal = invalid(result.error, WHAT[result.target] ?? `invalid ${result.target}`);
  const code = fieldCode(result.target, result.error);
  return errorResponse(c, code ? { ...refusal, code } : refusal);
}
