/**
 * What a user's message may carry as files (createRuntime `limits.messageFiles`): how large one
 * file may be, how many one message may carry, which types are taken, and how many pixels an
 * image's longer side may have. The defaults: 100 MiB is the files route's own upload limit; ten
 * files is more than a person attaches to one message yet keeps one request from filling a thread;
 * the types are those every model provider reads (images, PDF) or that are text; 8000 px is past
 * what any provider accepts (they scale larger images down), and an image declaring more is far
 * more likely a decompression bomb than a photograph.
 */
import { DefinitionError } from '../../spec/internal.js';

export interface MessageFileLimits {
  /** Bytes one file may have, however it is sent (JSON base64, multipart, a URL). Default 100 MiB. */
  maxFileBytes: number;
  /** Files one message may carry. Default 10. */
  maxFiles: number;
  /** The MIME types a file may have (a `path` file's stored type included). */
  mimeTypes: readonly string[];
  /** Pixels an image's width or height may have, read from its header. Default 8000. */
  maxImageSide: number;
}

export const DEFAULT_MESSAGE_FILE_LIMITS: Readonly<MessageFileLimits> = {
  maxFileBytes: 100 * 1024 * 1024,
  maxFiles: 10,
  mimeTypes: [
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'application/pdf',
    'text/plain',
    'text/markdown',
    'text/csv',
    'application/json',
  ],
  maxImageSide: 8000,
};

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The limits with their defaults filled in; a value no message could meet is a definition error. */
export function messageFileLimits(limits: Partial<MessageFileLimits> = {}): Readonly<MessageFileLimits> {
  const resolved = { ...DEFAULT_MESSAGE_FILE_LIMITS, ...limits };
  for (const name of ['maxFileBytes', 'maxFiles', 'maxImageSide'] as const) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new DefinitionError(`limits.messageFiles.${name} must be a positive whole number, not ${String(value)}`);
    }
  }
  const types = resolved.mimeTypes;
  if (!Array.isArray(types) || types.some((type) => typeof type !== 'string' || !MIME_TYPE.test(type))) {
    throw new DefinitionError('limits.messageFiles.mimeTypes must be a list of lower-case MIME types (type/subtype)');
  }
  return Object.freeze({ ...resolved, mimeTypes: Object.freeze([...types]) });
}
