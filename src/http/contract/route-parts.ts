/**
 * Building blocks of route declarations (THR-5): a JSON request body, a JSON response with its
 * schema, the JSON error, and the failures every authenticated route shares (THR-6).
 */
import type { ZodType } from 'zod';
import { ErrorSchema } from './response-schemas.js';

/** A required JSON body; routes that take one also run `jsonBody()` (request-body.ts). */
export function jsonRequest<T extends ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

export function json<T extends ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export function failure(description: string) {
  return json(ErrorSchema, description);
}

/** Every `/api` route and `/mcp` answer these before the route runs. */
export const AUTH_FAILURES = {
  401: failure('No key, or not a known one (`WWW-Authenticate: Bearer`)'),
  503: failure('`auth_not_configured`: API_KEYS is not set, so every request is refused'),
} as const;

/** The thread in the path is not the caller's, does not exist, or its id is not a UUID. */
export const THREAD_NOT_FOUND = failure('`thread_not_found`: no such thread of yours');
