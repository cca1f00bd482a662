/**
 * `defineThreadEndpoint` (the specification's Thread Endpoints chapter): an HTTP handler mounted
 * beneath a thread, run with that thread's `ThreadState` at rest (`execution` is null). An
 * application registers each endpoint under the path of its file below `agents/api/`, without
 * `.ts` (`summary`, `export.post`, `notes/[id]`); the runtime compiles those keys into its routes.
 *
 * The plain form is the specification's. The second form adds what the runtime's OpenAPI document
 * says of the endpoint: a summary, and zod schemas of the query, the JSON body and the JSON answer.
 * The runtime checks a request against the query and body schemas before the handler runs.
 */
import type { ZodType } from 'zod';
import { DefinitionError } from './definition-error.js';
import type { ThreadState } from './types/index.js';

/** The handler: the request, the thread's state at rest, and the path's `[name]` and `[*]` values. */
export type ThreadEndpointHandler = (
  req: Request,
  state: ThreadState,
  params: Record<string, string>,
) => Response | Promise<Response>;

/** What the OpenAPI document says of an endpoint, and what the runtime checks before it runs. */
export interface ThreadEndpointOptions {
  /** One line for the document; default, the endpoint's method and path. */
  summary?: string;
  description?: string;
  /** The query parameters, an object schema: a request that does not match is refused 400. */
  query?: ZodType;
  /** The JSON body: a request whose body is not JSON, or does not match, is refused 400. */
  body?: ZodType;
  /** The JSON answer, for the document only: the handler's Response is not checked against it. */
  response?: ZodType;
}

export interface ThreadEndpointDefinition extends ThreadEndpointOptions {
  readonly kind: 'thread_endpoint';
  readonly handler: ThreadEndpointHandler;
}

const SCHEMAS = ['query', 'body', 'response'] as const;

function isZod(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as ZodType).safeParse === 'function';
}

function checkedOptions(options: ThreadEndpointOptions): ThreadEndpointOptions {
  if (typeof options !== 'object' || options === null) {
    throw new DefinitionError('defineThreadEndpoint: the options must be an object');
  }
  for (const name of SCHEMAS) {
    if (options[name] !== undefined && !isZod(options[name])) {
      throw new DefinitionError(`defineThreadEndpoint: "${name}" must be a zod schema`);
    }
  }
  for (const name of ['summary', 'description'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'string') {
      throw new DefinitionError(`defineThreadEndpoint: "${name}" must be a string`);
    }
  }
  return options;
}

/** `defineThreadEndpoint(handler)`, or `defineThreadEndpoint({ summary, query, body, response }, handler)`. */
export function defineThreadEndpoint(handler: ThreadEndpointHandler): ThreadEndpointDefinition;
export function defineThreadEndpoint(
  options: ThreadEndpointOptions,
  handler: ThreadEndpointHandler,
): ThreadEndpointDefinition;
export function defineThreadEndpoint(
  first: ThreadEndpointHandler | ThreadEndpointOptions,
  second?: ThreadEndpointHandler,
): ThreadEndpointDefinition {
  const handler = typeof first === 'function' ? first : second;
  if (typeof handler !== 'function') {
    throw new DefinitionError('defineThreadEndpoint: the handler must be a function (req, state, params) => Response');
  }
  const options = typeof first === 'function' ? {} : checkedOptions(first);
  return { ...options, kind: 'thread_endpoint', handler };
}

/** Whether a registered value is what `defineThreadEndpoint` returns. */
export function isThreadEndpoint(value: unknown): value is ThreadEndpointDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as ThreadEndpointDefinition).kind === 'thread_endpoint' &&
    typeof (value as ThreadEndpointDefinition).handler === 'function'
  );
}
