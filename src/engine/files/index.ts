/** The files room's door: what the rest of the runtime may use of it. */
export { mimeTypeFor } from './mime.js';
export { attachmentRefFor, looksBinary, ThreadFiles } from './thread-files.js';
export { baseName, normalizeThreadPath, PathError } from './thread-path.js';
export type { TruncatedText, TruncationTarget } from './truncation.js';
export {
  SIDECAR_DIRECTORY,
  truncateOutput,
  truncationLimits,
  utf8ByteLength,
  utf8CutIndex,
  withEntryLimit,
} from './truncation.js';
