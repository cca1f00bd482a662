/**
 * Thread routes (THR-5; the routes are listed in docs/api.md): create, list, inspect, delete, read
 * messages, stop. Posting a message is src/http/messages/'s.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Registry } from '../../engine/registry/index.js';
import { type RpcResult, ThreadIndex, threadStub } from '../../thread/bindings/index.js';
import { releaseTurnSlot } from '../../thread/tenancy/index.js';
import {
  AUTH_FAILURES,
  CreateThreadBody,
  entityTag,
  failure,
  HttpError,
  json,
  jsonBody,
  jsonRequest,
  ListMessagesQuery,
  ListThreadsHeaders,
  ListThreadsQuery,
  type MessagePageBody,
  MessagePageSchema,
  noneMatchHits,
  routeApp,
  THREAD_NOT_FOUND,
  ThreadDetailsSchema,
  ThreadIdParam,
  ThreadListSchema,
  ThreadParams,
  unwrap,
} from '../contract/index.js';
import { CreatedThreadSchema, forgetThreadWebhooks } from '../webhooks/index.js';
import { startThread } from './thread-start.js';

/** A thread id from a path or a tool argument; anything but a UUID cannot name a thread. */
export function threadId(raw: string | undefined): string {
  const parsed = ThreadIdParam.safeParse(raw);
  if (!parsed.success) {
    throw new HttpError({ status: 404, code: 'thread_not_found', message: `no thread ${String(raw)}` });
  }
  return parsed.data;
}

const createThread = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createThread',
  tags: ['threads'],
  summary: 'Create a thread; a trailing user message starts a turn',
  middleware: [jsonBody()],
  request: { body: jsonRequest(CreateThreadBody) },
  responses: {
    201: json(CreatedThreadSchema, 'The new thread'),
    400: failure(
      '`invalid_request`, `invalid_json`, `unknown_agent`, `missing_variables` (`details.missing` lists the names), `invalid_context` (`details.tool` names the tool, `details.fields` the fields that failed its contextSchema), `secret_too_short` (a secret value under 8 characters), `invalid_url` or `invalid_events` (a webhook); nothing is created',
    ),
    501: failure('`not_configured`: webhooks were given, and the Worker has no TENANTS binding'),
    413: failure('`body_too_large`: JSON bodies are limited to 1 MiB'),
    429: {
      ...failure(
        "`rate_limited`: the tenant's or your limit of threads started per hour, or of turns running at once, is reached; nothing is created",
      ),
      headers: z.object({ 'Retry-After': z.string().describe('Seconds to wait before trying again') }),
    },
    ...AUTH_FAILURES,
  },
});

const PAGE_TAG = z.object({ ETag: z.string().describe('Names this exact page, for `If-None-Match`') });

const listThreads = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listThreads',
  tags: ['threads'],
  summary: 'List your threads, newest first',
  description:
    'Each page comes with an `ETag`. A client that keeps a list up to date asks again with `If-None-Match`: while the page is unchanged the answer is `304` without a body.',
  request: { query: ListThreadsQuery, headers: ListThreadsHeaders },
  responses: {
    200: { ...json(ThreadListSchema, 'A page of threads'), headers: PAGE_TAG },
    304: { description: 'The page is the one `If-None-Match` names: nothing changed', headers: PAGE_TAG },
    400: failure('`invalid_request`: a query parameter or If-None-Match is not valid'),
    ...AUTH_FAILURES,
  },
});

const getThread = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getThread',
  tags: ['threads'],
  summary: 'Status, children, what the thread waits for, usage and the last frame seq',
  request: { params: ThreadParams },
  responses: { 200: json(ThreadDetailsSchema, 'The thread'), 404: THREAD_NOT_FOUND, ...AUTH_FAILURES },
});

const deleteThread = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteThread',
  tags: ['threads'],
  summary: 'Stop the thread and delete its storage, files and index row',
  request: { params: ThreadParams },
  responses: { 204: { description: 'Deleted' }, 404: THREAD_NOT_FOUND, ...AUTH_FAILURES },
});

const listMessages = createRoute({
  method: 'get',
  path: '/{id}/messages',
  operationId: 'listMessages',
  tags: ['messages'],
  summary: 'Read the message log in pages, in order',
  request: { params: ThreadParams, query: ListMessagesQuery },
  responses: {
    200: json(MessagePageSchema, 'A page of messages'),
    400: failure('`invalid_request`: a query parameter is not valid'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

const stopThread = createRoute({
  method: 'post',
  path: '/{id}/stop',
  operationId: 'stopThread',
  tags: ['threads'],
  summary: "Abort the running step (the tool's abortSignal fires); stops child threads too",
  request: { params: ThreadParams },
  responses: { 200: json(ThreadDetailsSchema, 'The thread, stopped'), 404: THREAD_NOT_FOUND, ...AUTH_FAILURES },
});

const terminateThread = createRoute({
  method: 'post',
  path: '/{id}/terminate',
  operationId: 'terminateThread',
  tags: ['threads'],
  summary:
    'End the thread for good: its running step and child threads are stopped, its parent is told, and it takes no more messages (409 `thread_terminated`). Calling it again changes nothing',
  request: { params: ThreadParams },
  responses: { 200: json(ThreadDetailsSchema, 'The thread, terminated'), 404: THREAD_NOT_FOUND, ...AUTH_FAILURES },
});

export function threadRoutes(registry: Registry) {
  const app = routeApp();

  app.openapi(createThread, async (c) => {
    const body = c.req.valid('json');
    // TRACE-2: the caller's trace context, if any, is continued by the thread's first turn.
    const traceparent = c.req.header('traceparent');
    return c.json(await startThread(c.env, registry, c.get('principal'), body, traceparent), 201);
  });

  app.openapi(listThreads, async (c) => {
    const query = c.req.valid('query');
    const page = await new ThreadIndex(c.env.DB).list({ ...query, principal: c.get('principal') });
    // A live list asks every few seconds: an unchanged page answers 304 and sends nothing.
    const body = JSON.stringify(page);
    const tag = await entityTag(body);
    if (noneMatchHits(c.req.valid('header')['if-none-match'], tag)) return c.body(null, 304, { ETag: tag });
    return c.json(page, 200, { ETag: tag });
  });

  app.openapi(getThread, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(unwrap(await threadStub(c.env, id).describe(c.get('principal'), id)), 200);
  });

  app.openapi(deleteThread, async (c) => {
    const { id } = c.req.valid('param');
    const principal = c.get('principal');
    unwrap(await threadStub(c.env, id).destroy(principal, id));
    // IDN-5: a thread deleted while it waited for an answer held a turn slot; it goes back now.
    await releaseTurnSlot(c.env, principal.tenant, id);
    // WH-2: the endpoints given when the thread started hear nothing more.
    await forgetThreadWebhooks(c.env, principal.tenant, id);
    return c.body(null, 204);
  });

  app.openapi(listMessages, async (c) => {
    const { id } = c.req.valid('param');
    const { after, limit, depth } = c.req.valid('query');
    const page = await threadStub(c.env, id).listMessages(c.get('principal'), id, {
      after,
      limit,
      depth: depth ?? null,
    });
    // RPC's serialisation types lose the page's type (messages carry `unknown` fields): it is the
    // thread's MessagePage, which the schema describes.
    return c.json(unwrap(page as RpcResult<MessagePageBody>), 200);
  });

  app.openapi(stopThread, async (c) => {
    const { id } = c.req.valid('param');
    const principal = c.get('principal');
    const stopped = unwrap(await threadStub(c.env, id).stop(principal, id));
    // IDN-5: a stop that ends a wait leaves no turn: the thread's slot goes back now.
    if (stopped.status === 'idle') await releaseTurnSlot(c.env, principal.tenant, id);
    return c.json(stopped, 200);
  });

  app.openapi(terminateThread, async (c) => {
    const { id } = c.req.valid('param');
    const principal = c.get('principal');
    const terminated = unwrap(await threadStub(c.env, id).terminate(principal, id));
    // IDN-5: a terminated thread runs no more turns: its slot goes back now.
    await releaseTurnSlot(c.env, principal.tenant, id);
    return c.json(terminated, 200);
  });

  return app;
}
