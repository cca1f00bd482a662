/**
 * Deferred children (SUB-6): `GET /api/threads/:id/variables/:requestId` shows what a deferred child
 * lacks; `POST` with the values boots it (404 unknown request, 400 still missing).
 */
import { Hono } from 'hono';
import { threadStub } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import { DeferredVariablesBody, readJson, unwrap } from '../contract/index.js';
import { threadId } from './threads.js';

export function deferredChildRoutes() {
  const app = new Hono<HttpEnv>();

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
