/**
 * The app each room of routes is declared on (THR-5): an OpenAPIHono, so a route is added with its
 * schemas (`app.openapi(createRoute(...), handler)`) and cannot exist without its documentation,
 * and a failed validation answers the API's JSON error.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { HttpEnv } from './http-env.js';
import { validationHook } from './validation-hook.js';

export function routeApp(): OpenAPIHono<HttpEnv> {
  return new OpenAPIHono<HttpEnv>({ defaultHook: validationHook });
}
