/**
 * Thread endpoints (the specification's Thread Endpoints chapter): an application's endpoint keys
 * compiled into one route table, a request path matched against it, and a handler run to its answer.
 */

export { answerEndpoint, ENDPOINT_FAILED, type EndpointCall, endpointFailure } from './endpoint-answer.js';
export {
  ENDPOINT_METHODS,
  type EndpointMethod,
  type EndpointRoute,
  type RouteSegment,
  routePath,
} from './endpoint-key.js';
export { EndpointRoutes, type EndpointTarget, matchSegments, pathSegments, type RouteMatch } from './route-table.js';
