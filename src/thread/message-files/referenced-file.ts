/**
 * A `path` part (MSG-8): a file already in the thread (an upload, a tool's file), referenced as it is
 * and not copied. The path passes the thread's path rules (no `..`, no encoded traversal, no other
 * spelling of a path: refused 400 `invalid_path`), must name a file (404 `file_not_found`), and the
 * file must meet the same limits as a new one: an accepted type, the size, and for an image or a PDF
 * bytes that are what its type says, read from its first piece.
 */
import { attachmentRefFor, normalizeThreadPath, PathError } from '../../engine/files/index.js';
import type { MessageFileLimits } from '../../engine/registry/index.js';
import type { AttachmentRef } from '../../spec/index.js';
import type { CountedFileStore } from '../files/index.js';
import { checkFileContent } from './file-content-check.js';
import { PIECE_BYTES } from './file-pieces.js';
import { fileTooLarge, invalidPath, MessageFileRefused } from './message-file-refusals.js';
import { bareMimeType, checkMimeType } from './message-file-store.js';

/** At most `max` bytes from the start of `body`; the rest is not read. */
async function head(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const out = new Uint8Array(max);
  let filled = 0;
  const reader = body.getReader();
  try {
    while (filled < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const taken = Math.min(value.length, max - filled);
      out.set(value.subarray(0, taken), filled);
      filled += taken;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return out.subarray(0, filled);
}

function threadPath(raw: string): string {
  try {
    return normalizeThreadPath(raw);
  } catch (error) {
    if (error instanceof PathError) throw invalidPath(error.message);
    throw error;
  }
}

export async function referencedFile(
  files: CountedFileStore,
  raw: string,
  limits: MessageFileLimits,
  image: boolean,
): Promise<AttachmentRef> {
  const path = threadPath(raw);
  const found = path === '/' ? null : await files.get(path);
  if (!found) {
    throw new MessageFileRefused({ status: 404, code: 'file_not_found', message: `no file ${path} in this thread` });
  }
  const { stat, body } = found;
  try {
    const mimeType = bareMimeType(stat.mimeType);
    checkMimeType(path, mimeType, limits, image);
    if (stat.size > limits.maxFileBytes) throw fileTooLarge(path, limits);
    const sides = checkFileContent(path, mimeType, await head(body, Math.min(PIECE_BYTES, stat.size)), limits);
    return attachmentRefFor({ ...stat, ...sides }, crypto.randomUUID());
  } finally {
    await body.cancel().catch(() => {});
  }
}
