/**
 * Deferred children (SUB-6): `GET /api/threads/:id/variables/:requestId` shows what a deferred child
 * lacks; `POST` with the values boots it (404 unknown request, 400 still missing).
 */
import { Hono } from 'hono';
import type { RuntimeEnv } from '../../thread/bindings/env.js';
import { threadStub } from '../../thread/bindings/thread-stub.js';
import type { AuthVariables } from '../auth.js';
import { unwrap } from '../errors.js';
import { readJson } from '../request-body.js';
import { DeferredVariablesBody } from '../schemas.js';
import { threadId } from './threads.js';

export function deferredChildRoutes() {
  const app = new Hono<{ Bindings: RuntimeEnv; Variables: AuthVariables }>();

  app.get('/:id/variables/:requestId', async (c) => {
    const id = threadId(c.req.param('id'));
    return c.json(unwrap(await threadStub(c.env, id).deferredChild(c.get('userId'), id, c.req.param('requestId'))));
  });

  app.post('/:id/variables/:requestId', async (c) => {
    const id = threadId(c.req.param('id'));
    const { variables } = await readJson(c, DeferredVariablesBody);
    const stub = threadStub(c.env, id);
    return c.json(unwrap(await stub.bootDeferredChild(c.get('userId'), id, c.req.param('requestId'), variables)));
  });

  return app;
}
