/**
 * JSON errors (THR-5): every failure answers `{ "error": { "code", "message", "details"? } }` with a
 * 4xx that says what was wrong, or a 5xx that says what failed.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { describeIssues, issueLines } from '../../spec/internal.js';
import type { ApiError, RpcResult } from '../../thread/bindings/index.js';

export function errorResponse(c: Context, error: ApiError): Response {
  const body = {
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  };
  // A 429 says when to try again (THR-8: a full inbox).
  if (error.retryAfter !== undefined) c.header('Retry-After', String(error.retryAfter));
  return c.json(body, error.status as ContentfulStatusCode);
}

export function invalid(error: z.ZodError, what: string): ApiError {
  return {
    status: 400,
    code: 'invalid_request',
    message: `${what}: ${describeIssues(error)}`,
    details: issueLines(error),
  };
}

/** Thrown inside handlers to answer with an error; app.onError turns it into the JSON response. */
export class HttpError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}

/** The value of a thread RPC answer, or the HttpError its error becomes. */
export function unwrap<T>(result: RpcResult<T>): T {
  if (!result.ok) throw new HttpError(result.error);
  return result.value;
}
