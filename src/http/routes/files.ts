/**
 * Thread files over HTTP (ATT-5): uploads stream through the thread's object into R2, under the
 * thread's storage quota (ATT-6), and downloads stream out of R2; neither is held in memory whole.
 * A folder path lists its entries. The path is the rest of the request path, slashes included:
 * documented as `{path}`, served as `/files/*` (documented-route.ts). A file goes back out
 * sandboxed, never sniffed, and as an attachment unless its type cannot run script (served-file.ts).
 */

import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { mimeTypeFor, normalizeThreadPath, PathError, ThreadFiles } from '../../engine/files/index.js';
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { R2FileStore, threadStub } from '../../thread/bindings/index.js';
import {
  AttachmentRefSchema,
  AUTH_FAILURES,
  FileParams,
  FolderListingSchema,
  failure,
  type HttpEnv,
  HttpError,
  json,
  routeApp,
  serveDocumented,
  unwrap,
} from '../contract/index.js';
import { cleanMimeType, servedFileHeaders } from './served-file.js';
import { threadId } from './threads.js';

/** Default upload limit; MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const Bytes = z.string().openapi({ format: 'binary' });
const NOT_FOUND = failure('`thread_not_found`, or `file_not_found`: no such file or folder');
const INVALID_PATH = failure('`invalid_path`: `..`, encoded traversal, backslashes, NUL or control bytes');

const getFile = createRoute({
  method: 'get',
  path: '/{id}/files/{path}',
  operationId: 'getFile',
  tags: ['files'],
  summary: 'Download a file (streamed), or list a folder',
  request: { params: FileParams },
  responses: {
    200: {
      description:
        'The file, as its own mime type, with `X-File-Path`; or `{ path, entries }` for a folder. Every file is ' +
        "served with `Content-Security-Policy: sandbox; default-src 'none'` and `X-Content-Type-Options: nosniff`; " +
        'any type but plain text, JSON and raster images comes with `Content-Disposition: attachment`.',
      content: { 'application/json': { schema: FolderListingSchema }, '*/*': { schema: Bytes } },
    },
    400: INVALID_PATH,
    404: NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

const putFile = createRoute({
  method: 'put',
  path: '/{id}/files/{path}',
  operationId: 'putFile',
  tags: ['files'],
  summary: 'Upload a file (streamed; Content-Length required)',
  request: {
    params: FileParams,
    // Any content type: it becomes the file's mime type; the body is streamed to R2, never parsed.
    body: { required: true, content: { '*/*': { schema: Bytes } } },
  },
  responses: {
    201: json(AttachmentRefSchema, 'Stored; its AttachmentRef'),
    400: failure('`invalid_path` (or a folder path), or `invalid_request`: Content-Length is not a byte count'),
    404: failure('`thread_not_found`: no such thread of yours'),
    411: failure('`length_required`: no Content-Length'),
    413: failure(
      "`file_too_large`: over MAX_UPLOAD_BYTES (100 MiB unless configured); or `storage_quota_exceeded`: the thread's files would take more than its storage quota (`details`: `bytes` used, `quota_bytes`); nothing is stored",
    ),
    ...AUTH_FAILURES,
  },
});

function filePath(url: string, id: string): string {
  const pathname = new URL(url).pathname;
  const marker = `/api/threads/${id}/files`;
  const raw = pathname.slice(pathname.indexOf(marker) + marker.length);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new HttpError({ status: 400, code: 'invalid_path', message: 'the path is not valid percent-encoding' });
  }
  try {
    return normalizeThreadPath(decoded);
  } catch (error) {
    if (error instanceof PathError) throw new HttpError({ status: 400, code: 'invalid_path', message: error.message });
    throw error;
  }
}

async function authorize(env: RuntimeEnv, principal: Principal, id: string): Promise<void> {
  unwrap(await threadStub(env, id).authorize(principal, id, 'read'));
}

async function download(c: Context<HttpEnv>): Promise<Response> {
  const id = threadId(c.req.param('id'));
  const path = filePath(c.req.url, id);
  await authorize(c.env, c.get('principal'), id);
  const store = new R2FileStore(c.env.FILES, id);
  const file = path === '/' ? null : await store.get(path);
  if (file) {
    return new Response(file.body, { headers: servedFileHeaders(file.stat) });
  }
  const entries = await new ThreadFiles(store).readdir(path);
  if (entries.length === 0 && path !== '/') {
    throw new HttpError({ status: 404, code: 'file_not_found', message: `no file or folder ${path}` });
  }
  return c.json({ path, entries });
}

async function upload(c: Context<HttpEnv>): Promise<Response> {
  const id = threadId(c.req.param('id'));
  const path = filePath(c.req.url, id);
  if (path === '/' || c.req.url.endsWith('/')) {
    throw new HttpError({ status: 400, code: 'invalid_path', message: 'upload to a file path, not a folder' });
  }
  const limit = Number(c.env.MAX_UPLOAD_BYTES ?? DEFAULT_MAX_UPLOAD_BYTES);
  const lengthHeader = c.req.header('content-length');
  if (lengthHeader === undefined) {
    throw new HttpError({ status: 411, code: 'length_required', message: 'uploads need a Content-Length header' });
  }
  const length = Number(lengthHeader);
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new HttpError({ status: 400, code: 'invalid_request', message: 'Content-Length must be a byte count' });
  }
  if (length > limit) {
    throw new HttpError({
      status: 413,
      code: 'file_too_large',
      message: `the file is ${length} bytes; uploads are limited to ${limit} bytes`,
    });
  }
  // The upload's type without its parameters; one that is no clean MIME type gives way to the name's.
  const mimeType = cleanMimeType(c.req.header('content-type')?.split(';')[0]) ?? mimeTypeFor(path);
  // ATT-6: the thread's object stores it, under the thread's quota, checked before a byte is read.
  const stored = await threadStub(c.env, id).putFile(
    c.get('principal'),
    id,
    { path, length, mimeType },
    c.req.raw.body,
  );
  return c.json(unwrap(stored), 201);
}

export function fileRoutes() {
  const app = routeApp();
  serveDocumented(app, getFile, download, { restOfPath: 'path' });
  serveDocumented(app, putFile, upload, { restOfPath: 'path' });
  return app;
}
