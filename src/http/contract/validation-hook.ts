/**
 * What a failed validation answers (THR-5): the validators of the declared routes report here, and
 * the answers are the API's JSON errors — 400 `invalid_request` naming each issue for a body, a
 * query or a header, and 404 `thread_not_found` for a path whose thread id is not a UUID (such an id
 * cannot name a thread).
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

export function validationHook(result: ValidationResult, c: Context): Response | undefined {
  if (result.success) return undefined;
  if (result.target === 'param') {
    return errorResponse(c, { status: 404, code: 'thread_not_found', message: `no thread ${c.req.param('id')}` });
  }
  return errorResponse(c, invalid(result.error, WHAT[result.target] ?? `invalid ${result.target}`));
}
