/**
 * What the OpenAPI document says of each thread endpoint (EP-12, THR-5): one operation per endpoint,
 * at `/api/threads/{threadId}/<its path>`, its operationId made from its key
 * (`threadEndpoint_notes_id_post`), its path parameters, and the query, body and answer schemas of
 * its options when it gives them, else an opaque body and answer. The thread's own parameter is
 * `threadId`, the specification's word, and its endpoints' `[id]` keep theirs.
 */
import { type RouteConfig, z } from '@hono/zod-openapi';
import type { EndpointRoute } from '../../engine/endpoints/index.js';
import type { ThreadEndpointDefinition } from '../../spec/index.js';
import { AUTH_FAILURES, failure, ThreadIdParam } from '../contract/index.js';

/** An endpoint as it is served: its route, the document's path and Hono's, the thread's parameter. */
export interface ServedEndpoint {
  route: EndpointRoute;
  definition: ThreadEndpointDefinition;
  /** The thread id's parameter: `threadId`, unless the endpoint has a `[threadId]` of its own. */
  threadParam: string;
  /** `/api/threads/{threadId}/notes/{id}`, `/api/threads/{threadId}/docs/{*}`. */
  documentPath: string;
  /** `/api/threads/:threadId/notes/:id`, `/api/threads/:threadId/docs/*`. */
  routingPath: string;
}

const Opaque = z.string().openapi({ format: 'binary' });
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function servedEndpoint(route: EndpointRoute, definition: ThreadEndpointDefinition): ServedEndpoint {
  const names = new Set(route.segments.map((segment) => (segment.kind === 'param' ? segment.name : '*')));
  let threadParam = 'threadId';
  while (names.has(threadParam)) threadParam = `_${threadParam}`;
  const parts = route.segments.map((segment) => {
    if (segment.kind === 'static') return { document: segment.value, routing: segment.value };
    if (segment.kind === 'param') return { document: `{${segment.name}}`, routing: `:${segment.name}` };
    return { document: '{*}', routing: '*' };
  });
  const join = (thread: string, rest: string[]) => [`/api/threads/${thread}`, ...rest].join('/');
  return {
    route,
    definition,
    threadParam,
    documentPath: join(
      `{${threadParam}}`,
      parts.map((part) => part.document),
    ),
    routingPath: join(
      `:${threadParam}`,
      parts.map((part) => part.routing),
    ),
  };
}

/** `notes/[id].post` → `threadEndpoint_notes_id_post`; `docs/[*]` → `threadEndpoint_docs_rest_get`. */
export function operationIdOf(route: EndpointRoute): string {
  const words = route.segments.map((segment) => {
    if (segment.kind === 'static') return segment.value;
    return segment.kind === 'param' ? segment.name : 'rest';
  });
  const name = (words.length === 0 ? 'index' : words.join('_')).replaceAll(/[^A-Za-z0-9_]+/g, '_');
  return `threadEndpoint_${name}_${route.method.toLowerCase()}`;
}

function parameters(served: ServedEndpoint) {
  const shape: Record<string, z.ZodType> = {
    [served.threadParam]: ThreadIdParam.openapi({
      param: { name: served.threadParam, in: 'path' },
      description: 'The thread id',
    }),
  };
  for (const segment of served.route.segments) {
    const name = segment.kind === 'param' ? segment.name : segment.kind === 'rest' ? '*' : null;
    if (name === null) continue;
    const description = name === '*' ? 'The rest of the path, slashes included; may be empty' : 'One path segment';
    shape[name] = z.string().openapi({ param: { name, in: 'path' }, description });
  }
  return z.object(shape);
}

/** The answers the runtime may give instead of the handler's, each only where it can happen. */
function failures(served: ServedEndpoint, answers: RouteConfig['responses']): RouteConfig['responses'] {
  const { route, definition } = served;
  const writes = route.method !== 'GET';
  const carriesBody = WITH_BODY.has(route.method) || route.method === 'DELETE';
  return {
    ...answers,
    ...(definition.query || definition.body
      ? {
          400: failure(
            '`invalid_request`, `invalid_json` or `json_too_deep`: the query or body does not match its schema',
          ),
        }
      : {}),
    ...(writes ? { 403: failure('`forbidden`: your role may read this thread but not write it') } : {}),
    404: failure('`thread_not_found`: no such thread of yours'),
    ...(carriesBody ? { 413: failure('`body_too_large`: the body is over 1 MiB') } : {}),
    500: failure('`endpoint_failed`: the endpoint threw, or returned something that is not a Response'),
    ...AUTH_FAILURES,
  };
}

/** The endpoint's operation in the document. */
export function endpointOperation(served: ServedEndpoint, operationId: string): RouteConfig {
  const { route, definition } = served;
  const schemaOf = (schema: unknown) => schema as z.ZodType;
  const body = definition.body
    ? { required: true, content: { 'application/json': { schema: schemaOf(definition.body) } } }
    : { required: false, content: { '*/*': { schema: Opaque } } };
  const answer = definition.response
    ? { 'application/json': { schema: schemaOf(definition.response) } }
    : { '*/*': { schema: Opaque } };
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: served.documentPath,
    operationId,
    tags: ['thread endpoints'],
    summary: definition.summary ?? `The application's endpoint ${route.key}`,
    ...(definition.description ? { description: definition.description } : {}),
    request: {
      params: parameters(served),
      ...(definition.query ? { query: schemaOf(definition.query) as z.ZodObject } : {}),
      ...(WITH_BODY.has(route.method) || definition.body ? { body } : {}),
    },
    responses: failures(served, {
      200: { description: 'What the endpoint answers: any status, type and body it chooses', content: answer },
    }),
  };
}
