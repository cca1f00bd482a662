/**
 * Thread routes (THR-5; the routes are listed in the README): create, list, inspect, delete, post
 * and read messages, stop.
 */
import { Hono } from 'hono';
import type { Registry } from '../../engine/registry/index.js';
import { ThreadIndex, threadStub } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import {
  CreateThreadBody,
  HttpError,
  ListMessagesQuery,
  ListThreadsQuery,
  PostMessageBody,
  readJson,
  readQuery,
  ThreadIdParam,
  unwrap,
} from '../contract/index.js';
import { startThread } from './thread-start.js';

/** A thread id from the path; anything but a UUID cannot name a thread. */
export function threadId(raw: string | undefined): string {
  const parsed = ThreadIdParam.safeParse(raw);
  if (!parsed.success) {
    throw new HttpError({ status: 404, code: 'thread_not_found', message: `no thread ${String(raw)}` });
  }
  return parsed.data;
}

export function threadRoutes(registry: Registry) {
  const app = new Hono<HttpEnv>();

  app.post('/', async (c) => {
    const body = await readJson(c, CreateThreadBody);
    return c.json(await startThread(c.env, registry, c.get('userId'), body), 201);
  });

  app.get('/', async (c) => {
    const query = readQuery(c, ListThreadsQuery);
    const page = await new ThreadIndex(c.env.DB).list({ ...query, userId: c.get('userId') });
    return c.json(page);
  });

  app.get('/:id', async (c) => {
    const id = threadId(c.req.param('id'));
    return c.json(unwrap(await threadStub(c.env, id).describe(c.get('userId'), id)));
  });

  app.delete('/:id', async (c) => {
    const id = threadId(c.req.param('id'));
    unwrap(await threadStub(c.env, id).destroy(c.get('userId'), id));
    return c.body(null, 204);
  });

  app.post('/:id/messages', async (c) => {
    const id = threadId(c.req.param('id'));
    const body = await readJson(c, PostMessageBody);
    const idempotencyKey = c.req.header('idempotency-key');
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 256)) {
      throw new HttpError({
        status: 400,
        code: 'invalid_request',
        message: 'Idempotency-Key must be 1 to 256 characters',
      });
    }
    const answer = unwrap(
      await threadStub(c.env, id).postMessage(c.get('userId'), id, { content: body.content, idempotencyKey }),
    );
    return c.json(answer, 202);
  });

  app.get('/:id/messages', async (c) => {
    const id = threadId(c.req.param('id'));
    const query = readQuery(c, ListMessagesQuery);
    const page = unwrap(
      await threadStub(c.env, id).listMessages(c.get('userId'), id, {
        after: query.after,
        limit: query.limit,
        depth: query.depth ?? null,
      }),
    );
    return c.json(page);
  });

  app.post('/:id/stop', async (c) => {
    const id = threadId(c.req.param('id'));
    return c.json(unwrap(await threadStub(c.env, id).stop(c.get('userId'), id)));
  });

  return app;
}
