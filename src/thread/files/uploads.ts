/**
 * A client's upload (ATT-5, ATT-6), streamed from the Worker into the thread's object, which stores
 * it under the thread's quota: a file that does not fit is refused from its Content-Length, before
 * a byte of it is read, and nothing is stored.
 */
import { attachmentRefFor, normalizeThreadPath, PathError } from '../../engine/files/index.js';
import type { AttachmentRef } from '../../spec/index.js';
import { fail, ok, type RpcResult, type UploadedFile } from '../bindings/index.js';
import type { CountedFileStore } from './counted-file-store.js';
import { StorageQuotaExceeded } from './file-ledger.js';

export async function storeUpload(
  files: CountedFileStore,
  file: UploadedFile,
  body: ReadableStream | null,
): Promise<RpcResult<AttachmentRef>> {
  let path: string;
  try {
    path = normalizeThreadPath(file.path);
  } catch (error) {
    if (error instanceof PathError) return fail({ status: 400, code: 'invalid_path', message: error.message });
    throw error;
  }
  // R2 takes a stream only with its length; the stream must carry exactly the bytes announced.
  const data = body ? body.pipeThrough(new FixedLengthStream(file.length)) : new Uint8Array();
  try {
    const stat = await files.put(path, data, { mimeType: file.mimeType, size: file.length });
    return ok(attachmentRefFor(stat, crypto.randomUUID()));
  } catch (error) {
    if (!(error instanceof StorageQuotaExceeded)) throw error;
    // Refused before a byte was read: the client's body is dropped unread.
    if (data instanceof ReadableStream) await data.cancel().catch(() => {});
    return fail({
      status: 413,
      code: 'storage_quota_exceeded',
      message: error.message,
      details: { bytes: error.used, quota_bytes: error.quota },
    });
  }
}
