/**
 * JSON request bodies (THR-5), read before the route's validator runs: a body that is too large,
 * nested too deeply or not JSON is refused with a precise 4xx before anything is stored, and the
 * validator then checks its shape against the route's schema.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from './errors.js';
import type { HttpEnv } from './http-env.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** JSON bodies are messages and settings, not files: files go through the files routes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

function tooLarge(): HttpError {
  return new HttpError({
    status: 413,
    code: 'body_too_large',
    message: `JSON bodies are limited to ${MAX_JSON_BODY_BYTES} bytes`,
  });
}

/** What a body nested too deeply is refused with: 400 `json_too_deep`. */
function tooDeep(): HttpError {
  return new HttpError({
    status: 400,
    code: 'json_too_deep',
    message: `JSON bodies may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`,
  });
}

/**
 * A JSON body's text, once its size and nesting are known to be acceptable: throws 413
 * `body_too_large` or 400 `json_too_deep` before anything parses it.
 */
async function boundedJsonText(c: Context<HttpEnv>): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (text.length > MAX_JSON_BODY_BYTES) throw tooLarge();
  if (nestsDeeperThan(text)) throw tooDeep();
  return text;
}

/**
 * The route middleware of every JSON body. It keeps the answers the API has always given: 413
 * `body_too_large`, 400 `invalid_json`, an empty body read as `{}`, and any Content-Type accepted;
 * and refuses 400 `json_too_deep`. The validator that follows reads bodies only as
 * `application/json` (anything else is a 415 or an empty object to it), so it is handed the parsed
 * body under that type.
 */
export function jsonBody(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const text = await boundedJsonText(c);
    const body = text.trim() === '' ? '{}' : text;
    try {
      JSON.parse(body);
    } catch (error) {
      throw new HttpError({
        status: 400,
        code: 'invalid_json',
        message: `the body is not valid JSON: ${(error as Error).message}`,
      });
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers, body });
    c.req.bodyCache = {};
    await next();
  };
}
