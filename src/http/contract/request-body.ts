/**
 * Reads and validates JSON request bodies with Zod (THR-5): a body that is too large, not JSON or
 * of the wrong shape is refused with a precise 4xx before anything is stored.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError, invalid } from './errors.js';

/** JSON bodies are messages and settings, not files: files go through the files routes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_JSON_BODY_BYTES) {
    throw new HttpError({
      status: 413,
      code: 'body_too_large',
      message: `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes`,
    });
  }
  const text = await c.req.text();
  if (text.length > MAX_JSON_BODY_BYTES) {
    throw new HttpError({
      status: 413,
      code: 'body_too_large',
      message: `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes`,
    });
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new HttpError({
      status: 400,
      code: 'invalid_json',
      message: `the body is not valid JSON: ${(error as Error).message}`,
    });
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new HttpError(invalid(result.error, 'invalid body'));
  return result.data;
}

export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.query());
  if (!result.success) throw new HttpError(invalid(result.error, 'invalid query'));
  return result.data;
}
