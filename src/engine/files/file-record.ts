/**
 * The specification's `FileRecord` of a thread's file or directory, and the `metadata` a writer
 * keeps with a file: JSON of at most 1024 bytes (R2 holds it beside the file, in custom metadata of
 * at most 2 KiB with the image dimensions), scrubbed of the thread's secrets like the file itself.
 */
import type { FileRecord, FileStat } from '../../spec/index.js';
import type { SecretScrubber } from '../secrets/index.js';

/** The MIME type a directory's record shows. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';
/** Where a file's bytes are: in the thread's own storage. */
const LOCAL_STORAGE = 'local';
export const MAX_METADATA_BYTES = 1024;

export function fileRecord(stat: FileStat): FileRecord {
  return {
    path: stat.path,
    name: stat.name,
    mimeType: stat.mimeType,
    storage: LOCAL_STORAGE,
    size: stat.size,
    isDirectory: false,
    metadata: stat.metadata ?? {},
    ...(stat.width !== undefined ? { width: stat.width } : {}),
    ...(stat.height !== undefined ? { height: stat.height } : {}),
    uploadedAt: stat.uploadedAt,
  };
}

export function directoryRecord(path: string): FileRecord {
  return {
    path,
    name: path === '/' ? '' : path.slice(path.lastIndexOf('/') + 1),
    mimeType: DIRECTORY_MIME_TYPE,
    storage: LOCAL_STORAGE,
    size: 0,
    isDirectory: true,
    metadata: {},
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The metadata as it will be stored, or a thrown TypeError saying why it cannot be: not a plain
 * object, not JSON, or larger than 1024 bytes once scrubbed of secrets.
 */
export function storableMetadata(metadata: unknown, scrubber: SecretScrubber): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  if (!isPlainRecord(metadata)) throw new TypeError('writeFile: metadata must be a plain object');
  let text: string;
  try {
    text = JSON.stringify(metadata);
  } catch (error) {
    throw new TypeError(`writeFile: metadata must be JSON: ${(error as Error).message}`);
  }
  const clean = scrubber.value(JSON.parse(text) as Record<string, unknown>);
  if (new TextEncoder().encode(JSON.stringify(clean)).byteLength > MAX_METADATA_BYTES) {
    throw new TypeError(`writeFile: metadata is larger than ${MAX_METADATA_BYTES} bytes as JSON; nothing was written`);
  }
  return clean;
}
