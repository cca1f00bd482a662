/**
 * One file of a message stored (MSG-3, MSG-4, MSG-6): its type checked against the accepted list,
 * its bytes regrouped into pieces and counted as they pass (file-pieces.ts), its first piece checked
 * against the type it claims (file-content-check.ts), then sent to R2 under `/attachments/` with the
 * name de-duplicated as a tool's attachments are. A refusal at any point leaves nothing of the file
 * stored; files stored before it for the same message are the intake's to remove.
 */
import {
  attachmentPath,
  attachmentRefFor,
  mimeTypeFor,
  normalizeThreadPath,
  PathError,
} from '../../engine/files/index.js';
import type { MessageFileLimits } from '../../engine/registry/index.js';
import type { AttachmentRef } from '../../spec/index.js';
import type { CountedFileStore } from '../files/index.js';
import { checkFileContent } from './file-content-check.js';
import { inPieces, PIECE_BYTES } from './file-pieces.js';
import { fileTooLarge, invalidPath, unsupportedType } from './message-file-refusals.js';

/** A file as it comes in: its name, the type its sender gave, its bytes as they arrive. */
export interface IncomingFile {
  name: string;
  mimeType: string;
  bytes: AsyncIterable<Uint8Array>;
  /** An image part (`type: 'image'`): only an image type will do. */
  image?: boolean;
}

/** The type without parameters, lower case: `Image/PNG; x=y` is `image/png`. */
export function bareMimeType(declared: string | null | undefined): string {
  return (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The file's type: the one its sender gave, unless that says nothing (none, or the generic
 * `application/octet-stream` a browser sends for a type it does not know, as it does for `.md`): then
 * the one its name's extension has. Either way the bytes are then checked against it.
 */
function resolvedType(file: IncomingFile): string {
  const declared = bareMimeType(file.mimeType);
  return declared === '' || declared === 'application/octet-stream' ? mimeTypeFor(file.name) : declared;
}

/** Refuses a type the limits do not list (or, for an image part, one that is not an image). */
export function checkMimeType(name: string, mimeType: string, limits: MessageFileLimits, image = false): void {
  if (!limits.mimeTypes.includes(mimeType) || (image && !mimeType.startsWith('image/'))) {
    throw unsupportedType(name, mimeType, limits);
  }
}

function newPath(name: string): string {
  try {
    return normalizeThreadPath(attachmentPath(name));
  } catch (error) {
    // The name is the sender's: only its start is repeated back.
    if (error instanceof PathError) {
      throw invalidPath(`the file name ${JSON.stringify(name.slice(0, 100))} cannot name a file: ${error.message}`);
    }
    throw error;
  }
}

/** Stores `file`; its AttachmentRef, or throws a refusal (MessageFileRefused, StorageQuotaExceeded). */
export async function storeMessageFile(
  files: CountedFileStore,
  file: IncomingFile,
  limits: MessageFileLimits,
): Promise<AttachmentRef> {
  const mimeType = resolvedType(file);
  checkMimeType(file.name, mimeType, limits, file.image);
  const path = newPath(file.name);
  const pieces = inPieces(file.bytes, PIECE_BYTES, limits.maxFileBytes, () => fileTooLarge(file.name, limits));
  try {
    const first = await pieces.next();
    const sides = checkFileContent(file.name, mimeType, first.done ? new Uint8Array() : first.value, limits);
    async function* all(): AsyncGenerator<Uint8Array> {
      if (first.done) return;
      yield first.value;
      yield* pieces;
    }
    const stat = await files.putPieces(path, all(), { mimeType, ...sides });
    return attachmentRefFor(stat, crypto.randomUUID());
  } finally {
    // A refused file's source (a fetch's body, a part) is let go of, not left half read.
    await pieces.return(undefined).catch(() => {});
  }
}
