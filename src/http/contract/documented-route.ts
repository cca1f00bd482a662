/**
 * Routes declared in the document but served by a plain handler (THR-5), for what zod-openapi's
 * router and validators cannot front: a path parameter that takes the rest of the path, slashes
 * included (served as Hono's `*`); a body another library reads itself (the MCP SDK). Their
 * handlers check their requests themselves.
 */
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import type { HttpEnv } from './http-env.js';

export interface ServeOptions {
  /** The last path parameter, which takes the rest of the path. */
  restOfPath?: string;
}

/** Hono's path for a documented one: `{id}` is `:id`, and the rest-of-path parameter is `*`. */
export function routingPath(path: string, restOfPath?: string): string {
  const rest = restOfPath ? path.replace(new RegExp(`/\\{${restOfPath}\\}$`), '/*') : path;
  return rest.replaceAll(/\{([^}]+)\}/g, ':$1');
}

/** Declares `route` and serves it with `handler`; `route.middleware` is for `app.openapi` routes only. */
export function serveDocumented(
  app: OpenAPIHono<HttpEnv>,
  route: RouteConfig,
  handler: Handler<HttpEnv> | MiddlewareHandler<HttpEnv>,
  options: ServeOptions = {},
): void {
  const { middleware: _middleware, hide: _hide, ...declared } = route;
  app.openAPIRegistry.registerPath(declared);
  app.on(route.method.toUpperCase(), routingPath(route.path, options.restOfPath), handler);
}
