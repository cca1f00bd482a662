/**
 * Deferred children (SUB-6): `GET /api/threads/:id/variables/:requestId` shows what a deferred child
 * lacks; `POST` with the values boots it (404 unknown request, 400 still missing).
 */
import { createRoute } from '@hono/zod-openapi';
import { threadStub } from '../../thread/bindings/index.js';
import {
  AUTH_FAILURES,
  BootedChildSchema,
  DeferredChildParams,
  DeferredChildViewSchema,
  DeferredVariablesBody,
  failure,
  json,
  jsonBody,
  jsonRequest,
  routeApp,
  unwrap,
} from '../contract/index.js';

const NO_REQUEST = failure('No such thread of yours, or no such deferred child request in it');

const getDeferredVariables = createRoute({
  method: 'get',
  path: '/{id}/variables/{requestId}',
  operationId: 'getDeferredVariables',
  tags: ['interactions'],
  summary: 'A deferred child (subagent_env_required): its agent and the variables it lacks',
  request: { params: DeferredChildParams },
  responses: { 200: json(DeferredChildViewSchema, 'The request'), 404: NO_REQUEST, ...AUTH_FAILURES },
});

const provideDeferredVariables = createRoute({
  method: 'post',
  path: '/{id}/variables/{requestId}',
  operationId: 'provideDeferredVariables',
  tags: ['interactions'],
  summary: 'Give the missing values and boot the deferred child',
  middleware: [jsonBody()],
  request: { params: DeferredChildParams, body: jsonRequest(DeferredVariablesBody) },
  responses: {
    200: json(BootedChildSchema, 'The child thread, started'),
    400: failure('Required variables are still missing (`details.missing`), `secret_too_short`, or an invalid body'),
    404: NO_REQUEST,
    413: failure('`body_too_large`: JSON bodies are limited to 1 MiB'),
    ...AUTH_FAILURES,
  },
});

export function deferredChildRoutes() {
  const app = routeApp();

  app.openapi(getDeferredVariables, async (c) => {
    const { id, requestId } = c.req.valid('param');
    return c.json(unwrap(await threadStub(c.env, id).deferredChild(c.get('principal'), id, requestId)), 200);
  });

  app.openapi(provideDeferredVariables, async (c) => {
    const { id, requestId } = c.req.valid('param');
    const { variables } = c.req.valid('json');
    const stub = threadStub(c.env, id);
    return c.json(unwrap(await stub.bootDeferredChild(c.get('principal'), id, requestId, variables)), 200);
  });

  return app;
}
