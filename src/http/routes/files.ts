/**
 * Thread files over HTTP (ATT-5): uploads stream into R2 and downloads stream out of it; neither is
 * held in memory whole. A folder path lists its entries.
 */
import { Hono } from 'hono';
import {
  attachmentRefFor,
  mimeTypeFor,
  normalizeThreadPath,
  PathError,
  ThreadFiles,
} from '../../engine/files/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { R2FileStore, threadStub } from '../../thread/bindings/index.js';
import type { HttpEnv } from '../contract/index.js';
import { HttpError, unwrap } from '../contract/index.js';
import { threadId } from './threads.js';

/** Default upload limit; MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

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

async function authorize(env: RuntimeEnv, userId: string, id: string): Promise<void> {
  unwrap(await threadStub(env, id).authorize(userId, id));
}

export function fileRoutes() {
  const app = new Hono<HttpEnv>();

  app.get('/:id/files/*', async (c) => {
    const id = threadId(c.req.param('id'));
    const path = filePath(c.req.url, id);
    await authorize(c.env, c.get('userId'), id);
    const store = new R2FileStore(c.env.FILES, id);
    const file = path === '/' ? null : await store.get(path);
    if (file) {
      return new Response(file.body, {
        headers: {
          'content-type': file.stat.mimeType,
          'content-length': String(file.stat.size),
          'x-file-path': file.stat.path,
        },
      });
    }
    const entries = await new ThreadFiles(store).readdir(path);
    if (entries.length === 0 && path !== '/') {
      throw new HttpError({ status: 404, code: 'file_not_found', message: `no file or folder ${path}` });
    }
    return c.json({ path, entries });
  });

  app.put('/:id/files/*', async (c) => {
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
    await authorize(c.env, c.get('userId'), id);
    const body = c.req.raw.body ?? new Uint8Array();
    const sized = body instanceof Uint8Array ? body : body.pipeThrough(new FixedLengthStream(length));
    const mimeType = c.req.header('content-type')?.split(';')[0]?.trim() || mimeTypeFor(path);
    const stat = await new R2FileStore(c.env.FILES, id).put(path, sized, { mimeType });
    return c.json(attachmentRefFor(stat, crypto.randomUUID()), 201);
  });

  return app;
}
