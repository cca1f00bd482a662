/**
 * The thread filesystem as tools see it (ATT-1, ATT-3, LOCK-6): confined paths, files over a
 * FileStore, MIME types, and truncation of large outputs into sidecar files.
 */
export { attachmentPath } from './attachment-path.js';
export { directoryMarker, isDirectoryMarker } from './directories.js';
export { DIRECTORY_MIME_TYPE, fileRecord } from './file-record.js';
export { mimeTypeFor } from './mime.js';
export { canonicalText, invisibleCharacterIn } from './name-characters.js';
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
