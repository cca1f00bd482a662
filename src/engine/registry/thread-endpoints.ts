/**
 * An application's thread endpoints checked and compiled once, at startup (EP-1, EP-6): every value
 * is a `defineThreadEndpoint` definition and every key a route, no two of them answering the same
 * method and path; a DefinitionError names the entry that is not.
 */
import { DefinitionError, type ThreadEndpointDefinition } from '../../spec/index.js';
import { isThreadEndpoint } from '../../spec/internal.js';
import { EndpointRoutes } from '../endpoints/index.js';

export interface ThreadEndpoints {
  /** The route table requests below a thread are matched against. */
  routes: EndpointRoutes;
  /** The definitions by key. */
  byKey: ReadonlyMap<string, ThreadEndpointDefinition>;
}

export function threadEndpoints(
  definitions: Readonly<Record<string, ThreadEndpointDefinition>> | undefined,
): ThreadEndpoints {
  const byKey = new Map<string, ThreadEndpointDefinition>();
  for (const [key, definition] of Object.entries(definitions ?? {})) {
    if (!isThreadEndpoint(definition)) {
      throw new DefinitionError(`endpoints["${key}"] is not a defineThreadEndpoint() definition`);
    }
    byKey.set(key, definition);
  }
  return { routes: new EndpointRoutes(byKey.keys()), byKey };
}
