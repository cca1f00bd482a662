/**
 * The refusals of files on a message (MSG-5 to MSG-7), each an API error whose code names what to
 * change: thrown where the problem is found, deep in a stream or a check, and answered once by the
 * intake after it has removed whatever the message had stored so far.
 */
import type { MessageFileLimits } from '../../engine/registry/index.js';
import type { ApiError } from '../bindings/index.js';

export class MessageFileRefused extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = 'MessageFileRefused';
  }
}

export function fileTooLarge(name: string, limits: MessageFileLimits): MessageFileRefused {
  return new MessageFileRefused({
    status: 413,
    code: 'file_too_large',
    message: `${name} is larger than the ${limits.maxFileBytes} byte limit of a file on a message`,
    details: { max_file_bytes: limits.maxFileBytes },
  });
}

export function tooManyFiles(limits: MessageFileLimits): MessageFileRefused {
  return new MessageFileRefused({
    status: 400,
    code: 'too_many_files',
    message: `a message may carry at most ${limits.maxFiles} files`,
    details: { max_files: limits.maxFiles },
  });
}

export function unsupportedType(name: string, mimeType: string, limits: MessageFileLimits): MessageFileRefused {
  return new MessageFileRefused({
    status: 415,
    code: 'unsupported_media_type',
    message: `${name} is ${mimeType || 'of no type'}; a file on a message may be one of ${limits.mimeTypes.join(', ')}`,
    details: { accepted: limits.mimeTypes },
  });
}

export function invalidPath(message: string): MessageFileRefused {
  return new MessageFileRefused({ status: 400, code: 'invalid_path', message });
}

export function invalidMultipart(message: string): MessageFileRefused {
  return new MessageFileRefused({ status: 400, code: 'invalid_multipart', message });
}

export function fetchFailed(url: string, why: string): MessageFileRefused {
  return new MessageFileRefused({
    status: 400,
    code: 'attachment_fetch_failed',
    message: `the image at ${url} could not be fetched: ${why}`,
  });
}
