/**
 * Putting a kept copy of a file back at its path: the file history's copies (forks, rewinds) and
 * the undo journal's (rollbacks) are R2 objects holding a file's bytes, type, dimensions and
 * metadata as they were; either goes back the same way.
 */
import type { FileStore, StoredFileMeta } from '../../engine/ports/index.js';

/** Writes the copy under `copyKey` back to `path` in `store`; `what` names the copy if it is missing. */
export async function putCopyBack(
  bucket: R2Bucket,
  copyKey: string,
  path: string,
  store: FileStore,
  what: string,
): Promise<void> {
  const copy = await bucket.get(copyKey);
  if (!copy) throw new Error(`the ${what} copy of ${path} is missing`);
  const custom = copy.customMetadata ?? {};
  const meta: StoredFileMeta = {
    mimeType: copy.httpMetadata?.contentType ?? 'application/octet-stream',
    size: copy.size,
    ...(custom.width ? { width: Number(custom.width) } : {}),
    ...(custom.height ? { height: Number(custom.height) } : {}),
    ...(custom.metadata ? { metadata: JSON.parse(custom.metadata) as Record<string, unknown> } : {}),
  };
  await store.put(path, copy.body.pipeThrough(new FixedLengthStream(copy.size)), meta);
}
