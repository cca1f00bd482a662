/**
 * The storage behind a thread's filesystem. Paths given to it are already normalised and confined
 * (thread-path.ts); the Durable Object implements it on R2, engine tests in memory.
 */
import type { FileStat } from '../../spec/index.js';

export interface StoredFileMeta {
  mimeType: string;
  width?: number;
  height?: number;
  /** The byte length of streamed data (required then: R2 and the thread's quota need it up front). */
  size?: number;
  /** What the writer keeps with the file (JSON, at most 1024 bytes: file-record.ts). */
  metadata?: Record<string, unknown>;
}

export interface FileListing {
  /** Files only: a directory's marker (a key ending in `/`, directories.ts) is never listed as a file. */
  files: FileStat[];
  /**
   * Non-recursive listings: the immediate sub-directories, as normalised paths. Recursive ones: the
   * directories kept by a marker.
   */
  directories: string[];
}

export interface ListOptions {
  recursive: boolean;
  limit?: number;
}

export interface FileStore {
  /** Bytes the thread's files may take, if the store enforces a quota. */
  readonly quota?: number;
  put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta): Promise<FileStat>;
  get(path: string): Promise<{ stat: FileStat; body: ReadableStream } | null>;
  head(path: string): Promise<FileStat | null>;
  /**
   * Files under `prefix` (a directory prefix ending in `/`); recursive lists everything below.
   * `limit`: the caller needs no more entries (files and directories) than this; a store may give more.
   */
  list(prefix: string, options: ListOptions): Promise<FileListing>;
  delete(path: string): Promise<boolean>;
}
