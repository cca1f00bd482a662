/**
 * The application's thread endpoints served beneath their thread (EP-2, EP-8 to EP-12):
 * `/api/threads/:id/<endpoint path>`, the prefix this runtime chooses, as the specification's own
 * runtime does. The runtime's thread routes come first: an endpoint one of them would answer instead
 * is refused at startup, naming both. A request passes the same sign-in and thread access as every
 * thread route (404 for a thread the caller does not see; GET reads, any other method writes, 403
 * when the role may not) and the same 1 MiB body limit; its query and body are checked against the
 * endpoint's schemas when it gives them; then the thread's object runs the handler, at rest. The
 * caller's credential is not handed to application code: the request reaches the handler without
 * its Authorization header.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type EndpointRoute, matchSegments, type RouteSegment, routePath } from '../../engine/endpoints/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { DefinitionError, type ThreadEndpointDefinition } from '../../spec/index.js';
import { threadStub } from '../../thread/bindings/index.js';
import { type HttpEnv, MAX_JSON_BODY_BYTES } from '../contract/index.js';
import { threadId } from '../routes/index.js';
import { endpointOperation, operationIdOf, servedEndpoint } from './endpoint-operations.js';
import { checkedEndpointRequest } from './endpoint-request.js';

const THREAD_PREFIX = '/api/threads/:id';

/** A Hono route's path below its thread as route segments: `:name` one segment, `*` the rest. */
function builtinSegments(path: string): RouteSegment[] {
  const below = path.slice(THREAD_PREFIX.length).split('/').filter(Boolean);
  return below.map((part): RouteSegment => {
    if (part === '*') return { kind: 'rest' };
    return part.startsWith(':') ? { kind: 'param', name: part.slice(1) } : { kind: 'static', value: part };
  });
}

/**
 * The runtime's thread route that would answer an endpoint's requests instead of it: matched with a
 * request the endpoint is for, a value no static segment can equal standing for each `[name]` and
 * `[*]`. `[name]` beside a static built-in (`messages`) is precedence, not a collision.
 */
function shadowingRoute(app: OpenAPIHono<HttpEnv>, route: EndpointRoute): string | null {
  const request = route.segments.map((segment) => (segment.kind === 'static' ? segment.value : '[value]'));
  for (const builtin of app.routes) {
    if (builtin.method !== route.method) continue;
    if (builtin.path !== THREAD_PREFIX && !builtin.path.startsWith(`${THREAD_PREFIX}/`)) continue;
    if (matchSegments(builtinSegments(builtin.path), request)) return `${builtin.method} ${builtin.path}`;
  }
  return null;
}

/** The request's thread id and its path below the thread, from the URL as it came. */
function threadAndPath(url: string): { id: string; path: string } {
  const pathname = new URL(url).pathname;
  const below = pathname.slice('/api/threads/'.length);
  const slash = below.indexOf('/');
  const raw = slash === -1 ? below : below.slice(0, slash);
  return { id: threadId(raw), path: slash === -1 ? '/' : below.slice(slash) };
}

function dispatcher(registry: Registry) {
  return async (c: Context<HttpEnv>) => {
    const { id, path } = threadAndPath(c.req.url);
    const match = registry.endpoints.routes.match(c.req.method, path);
    if (!match) return c.notFound();
    const definition = registry.endpoints.byKey.get(match.route.key) as ThreadEndpointDefinition;
    const request = await checkedEndpointRequest(c.req.raw, definition, MAX_JSON_BODY_BYTES);
    return threadStub(c.env, id).runEndpoint(
      c.get('principal'),
      id,
      { key: match.route.key, params: match.params },
      request,
    );
  };
}

/**
 * Declares and serves every endpoint of the application, after the runtime's own thread routes;
 * throws a DefinitionError for an endpoint one of those routes would answer instead.
 */
export function mountThreadEndpoints(app: OpenAPIHono<HttpEnv>, registry: Registry): void {
  const handle = dispatcher(registry);
  const operationIds = new Set<string>();
  for (const route of registry.endpoints.routes.routes) {
    const shadow = shadowingRoute(app, route);
    if (shadow) {
      throw new DefinitionError(
        `endpoints["${route.key}"] (${route.method} /api/threads/:id${routePath(route.segments)}) collides with the runtime's route ${shadow}, which takes precedence: rename the endpoint's file`,
      );
    }
    const served = servedEndpoint(route, registry.endpoints.byKey.get(route.key) as ThreadEndpointDefinition);
    let operationId = operationIdOf(route);
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${operationIdOf(route)}_${n}`;
    operationIds.add(operationId);
    app.openAPIRegistry.registerPath(endpointOperation(served, operationId));
    app.on(route.method, served.routingPath, handle);
  }
}
