/**
 * Files crossing threads (ATT-4): always by copy, into the receiving thread's own `/attachments/`,
 * so every reference a thread holds is valid in its own filesystem. Parent → child files land in
 * `/attachments/from-parent/`; child → parent files in `/attachments/from-<child id prefix>/`.
 */
import { attachmentRefFor, baseName, normalizeThreadPath } from '../../engine/files/index.js';
import type { AttachmentRef } from '../../spec/index.js';
import { R2FileStore } from '../bindings/index.js';

/** Copies one file between thread filesystems, streaming; null when the source does not exist. */
export async function copyBetweenThreads(
  bucket: R2Bucket,
  from: { threadId: string; path: string },
  to: { threadId: string; path: string },
): Promise<AttachmentRef | null> {
  const source = await new R2FileStore(bucket, from.threadId).get(normalizeThreadPath(from.path));
  if (!source) return null;
  const { stat, body } = source;
  const sized = body.pipeThrough(new FixedLengthStream(stat.size));
  const copied = await new R2FileStore(bucket, to.threadId).put(normalizeThreadPath(to.path), sized, {
    mimeType: stat.mimeType,
    width: stat.width,
    height: stat.height,
  });
  return attachmentRefFor(copied, crypto.randomUUID());
}

/** Copies files into a folder of another thread, keeping their names; refuses a missing file. */
export async function copyIntoThread(
  bucket: R2Bucket,
  fromThread: string,
  paths: readonly string[],
  toThread: string,
  folder: string,
): Promise<AttachmentRef[]> {
  const copies: AttachmentRef[] = [];
  for (const [index, path] of paths.entries()) {
    // A numeric prefix keeps two files of the same name apart.
    const target = `${folder}/${paths.length > 1 ? `${index + 1}-` : ''}${baseName(normalizeThreadPath(path))}`;
    const copied = await copyBetweenThreads(
      bucket,
      { threadId: fromThread, path },
      { threadId: toThread, path: target },
    );
    if (!copied) throw new Error(`no file ${normalizeThreadPath(path)} to hand over`);
    copies.push(copied);
  }
  return copies;
}
