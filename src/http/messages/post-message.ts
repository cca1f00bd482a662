/**
 * `POST /api/threads/:id/messages` (THR-5, MSG-1, MSG-2): a user message, as JSON or as
 * `multipart/form-data`. A JSON body is read whole (1 MiB at most) and checked against its schema;
 * its content is text, or parts of text and files. A multipart body is not read here at all: its
 * stream goes to the thread's object, which stores each file part as it arrives (a body of any
 * size passes through a Worker that never holds it). Either way the message takes a turn slot first
 * (IDN-5) and keeps the Idempotency-Key, `on_busy` and trace context of a plain message.
 *
 * Declared with both bodies in the document but served by hand (documented-route.ts): zod-openapi's
 * validators would parse a multipart body whole before the handler ran.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { OnBusy } from '../../spec/index.js';
import { threadStub } from '../../thread/bindings/index.js';
import { multipartBoundary } from '../../thread/message-files/index.js';
import {
  AUTH_FAILURES,
  failure,
  type HttpEnv,
  HttpError,
  json,
  jsonBody,
  PostMessageAnswerSchema,
  PostMessageBody,
  PostMessageForm,
  PostMessageHeaders,
  routeApp,
  serveDocumented,
  ThreadParams,
  unwrap,
  validationHook,
} from '../contract/index.js';
import { threadId, withTurnSlot } from '../routes/index.js';

const postMessage = createRoute({
  method: 'post',
  path: '/{id}/messages',
  operationId: 'postMessage',
  tags: ['messages'],
  summary:
    'Post a user message, with files or without: it starts a turn, or is queued while one runs (or refused, or interrupts it: `on_busy`)',
  description:
    'JSON: `content` is the text, or a list of parts (text, image, file) whose files are given as base64 `data`, a thread `path`, or (images) a `url`. `multipart/form-data`, for large files: a `content` field, an optional `on_busy` field, and file parts named `file`, streamed to the thread as they arrive. Files are stored under `/attachments/` and listed on the message as `attachments`, in order; a refused message stores nothing (no message, no file). Limits: createRuntime `limits.messageFiles`.',
  request: {
    params: ThreadParams,
    headers: PostMessageHeaders,
    body: {
      required: true,
      content: {
        'application/json': { schema: PostMessageBody },
        'multipart/form-data': { schema: PostMessageForm },
      },
    },
  },
  responses: {
    202: json(PostMessageAnswerSchema, 'Stored or queued'),
    400: failure(
      '`invalid_request` (the body, or an Idempotency-Key not 1 to 256 characters), `invalid_on_busy` (`on_busy` is not one of enqueue, reject, interrupt, rollback), `invalid_json`, `invalid_multipart` (a malformed multipart body, an unknown field, or one cut off midway), `too_many_files`, `invalid_base64`, `file_type_mismatch` (an image or PDF whose bytes are not what its type says, or text that is not UTF-8), `image_too_large` (more pixels a side than allowed), `invalid_path` (a `path` part, or a file name, that cannot name a file of the thread) or `attachment_fetch_failed` (an image `url` that could not be fetched); nothing is stored',
    ),
    404: failure('`thread_not_found`: no such thread of yours; or `file_not_found`: a `path` part names no file'),
    409: failure(
      '`thread_terminated`: the thread was terminated and takes no more messages; or `thread_busy`: a turn runs (or waits) and the message asked to be refused then (`on_busy` reject). Nothing is stored',
    ),
    413: failure(
      "`body_too_large`: JSON bodies are limited to 1 MiB (send large files as multipart); `file_too_large`: a file is over limits.messageFiles.maxFileBytes (`details.max_file_bytes`); or `storage_quota_exceeded`: the files would take more than the thread's storage quota. Nothing is stored",
    ),
    415: failure(
      '`unsupported_media_type`: a file is not of a type limits.messageFiles.mimeTypes lists (`details.accepted`); nothing is stored',
    ),
    422: failure('`idempotency_key_reused`: the Idempotency-Key came with another message; nothing is stored'),
    429: {
      ...failure(
        "`inbox_full`: as many messages as the thread's inbox holds already wait for its running turn (createRuntime limits.inboxMessages); or `rate_limited`: the tenant's or your limit of turns running at once is reached. Nothing is stored",
      ),
      headers: z.object({ 'Retry-After': z.string().describe('Seconds to wait before sending again') }),
    },
    ...AUTH_FAILURES,
  },
});

/** The Idempotency-Key, checked as the declared header schema checks it. */
function idempotencyKey(c: Context<HttpEnv>): string | undefined | Response {
  const parsed = PostMessageHeaders.safeParse({ 'idempotency-key': c.req.header('idempotency-key') });
  if (!parsed.success) return validationHook({ target: 'header', success: false, error: parsed.error }, c) as Response;
  return parsed.data['idempotency-key'];
}

/** A JSON body, read and checked as a declared route's would be; its answer, or the refusal. */
async function postJson(c: Context<HttpEnv>, id: string, key: string | undefined): Promise<Response> {
  const parsed = PostMessageBody.safeParse(await c.req.json());
  if (!parsed.success) return validationHook({ target: 'json', success: false, error: parsed.error }, c) as Response;
  const { content, on_busy: onBusy } = parsed.data;
  const principal = c.get('principal');
  const traceparent = c.req.header('traceparent');
  const busy = onBusy ? { onBusy: onBusy as OnBusy } : {};
  const stub = threadStub(c.env, id);
  // IDN-5: a message starts or joins a turn, which takes a slot first.
  const answer = await withTurnSlot(c.env, principal, id, async () =>
    unwrap(
      typeof content === 'string'
        ? await stub.postMessage(principal, id, { content, idempotencyKey: key, ...busy, traceparent })
        : await stub.postMessageWithFiles(
            principal,
            id,
            { parts: content, idempotencyKey: key, ...busy, traceparent },
            null,
          ),
    ),
  );
  return c.json(answer, 202);
}

/** A multipart body, handed on unread to the thread's object. */
async function postMultipart(c: Context<HttpEnv>, id: string, key: string | undefined): Promise<Response> {
  const principal = c.get('principal');
  const input = {
    contentType: c.req.header('content-type'),
    idempotencyKey: key,
    traceparent: c.req.header('traceparent'),
  };
  const answer = await withTurnSlot(c.env, principal, id, async () =>
    unwrap(await threadStub(c.env, id).postMessageWithFiles(principal, id, input, c.req.raw.body)),
  );
  return c.json(answer, 202);
}

async function post(c: Context<HttpEnv>): Promise<Response> {
  const contentType = c.req.header('content-type');
  const multipart = contentType?.trim().toLowerCase().startsWith('multipart/form-data') === true;
  // The JSON body's own answers first (413 body_too_large, 400 invalid_json), as before: thrown.
  if (!multipart) await jsonBody()(c, async () => {});
  const id = threadId(c.req.param('id'));
  const key = idempotencyKey(c);
  if (key instanceof Response) return key;
  if (!multipart) return postJson(c, id, key);
  if (!multipartBoundary(contentType)) {
    throw new HttpError({
      status: 400,
      code: 'invalid_multipart',
      message: 'a multipart/form-data body needs a boundary parameter of 1 to 70 characters',
    });
  }
  return postMultipart(c, id, key);
}

/** The route, on an app mounted at /api/threads. */
export function messageRoutes() {
  const app = routeApp();
  serveDocumented(app, postMessage, post);
  return app;
}
