/**
 * A thread's files: download (the Response, its body unread, so large files stream), list a folder,
 * upload. Bodies are bytes, not JSON, so these calls go through `fetch` directly; each path segment
 * is percent-encoded and the slashes kept, as the route reads them.
 */
import { rawRequest } from './http.js';
import type { Platform } from './options.js';
import type { FolderListing } from './resources.js';
import type { AttachmentRef } from './wire.js';

/** What an upload may send: its length must be known (the route requires Content-Length). */
export type UploadBody = string | Blob | ArrayBuffer | Uint8Array;

export interface FileCalls {
  /** `GET .../files/<path>`: the file's Response (`content-type`, `content-length`, the body as a stream). */
  get(id: string, path: string): Promise<Response>;
  /** `GET .../files/<folder>`: the folder's entries; the root when `path` is omitted. */
  list(id: string, path?: string): Promise<FolderListing>;
  /** `PUT .../files/<path>` (201): the stored file as an AttachmentRef. */
  put(id: string, path: string, body: UploadBody, contentType: string): Promise<AttachmentRef>;
}

/** `/api/threads/<id>/files/<path>` with each segment of `path` encoded. */
export function filePath(id: string, path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '');
  return `/api/threads/${encodeURIComponent(id)}/files/${segments.map(encodeURIComponent).join('/')}`;
}

/** The body as `fetch` takes it: a view over shared memory is copied, as fetch refuses one. */
function requestBody(body: UploadBody): BodyInit {
  if (body instanceof Uint8Array && !(body.buffer instanceof ArrayBuffer)) return new Uint8Array(body);
  return body as BodyInit;
}

export function fileCalls(platform: Platform): FileCalls {
  return {
    get: (id, path) => rawRequest(platform, filePath(id, path)),
    list: async (id, path = '/') => {
      const response = await rawRequest(platform, filePath(id, path), { headers: { accept: 'application/json' } });
      if (!response.headers.get('content-type')?.includes('application/json')) {
        await response.body?.cancel();
        throw new TypeError(`${path} is a file, not a folder: download it with files.get`);
      }
      return (await response.json()) as FolderListing;
    },
    put: async (id, path, body, contentType) => {
      const response = await rawRequest(platform, filePath(id, path), {
        method: 'PUT',
        body: requestBody(body),
        headers: { 'content-type': contentType },
      });
      return (await response.json()) as AttachmentRef;
    },
  };
}
