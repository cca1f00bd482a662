/**
 * The thread's file system as `ThreadState` gives it (the specification's File System chapter, and
 * this runtime's own forms): stats, directory entries, file records, streamed chunks, totals.
 */

export interface FileStat {
  path: string;
  name: string;
  size: number;
  mimeType: string;
  uploadedAt: number;
  width?: number;
  height?: number;
  /** What the writer gave as `metadata` (`writeFile`), if anything. */
  metadata?: Record<string, unknown>;
}

export interface DirectoryEntry {
  name: string;
  path: string;
  kind: 'file' | 'directory';
  size?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface WriteFileOptions {
  /** This runtime's form: the MIME type as an option (`writeFile(path, data, { mimeType })`). */
  mimeType?: string;
  width?: number;
  height?: number;
  /** Kept with the file and shown as `FileRecord.metadata`: JSON, at most 1024 bytes. */
  metadata?: Record<string, unknown>;
}

/**
 * A file or directory of the thread (the specification's FileRecord). A written file's record also
 * carries an attachment's fields (`id`, `type`), so it can be attached to a tool result as it is.
 */
export interface FileRecord {
  /** From the thread's root: `/docs/a.md`. */
  path: string;
  name: string;
  /** `inode/directory` for a directory. */
  mimeType: string;
  /** Where the bytes are kept: always `'local'` here, the thread's own storage. */
  storage: string;
  /** Bytes; 0 for a directory. */
  size: number;
  isDirectory: boolean;
  /** What the writer gave as `metadata`; `{}` when none. */
  metadata: Record<string, unknown>;
  width?: number;
  height?: number;
  /** When the file was stored, in ms since the epoch; absent for a directory. */
  uploadedAt?: number;
}

/** One entry of `readdirFile`: `kind` is this runtime's older name for `isDirectory`. */
export interface ReaddirEntry extends DirectoryEntry {
  isDirectory: boolean;
}

export interface ReaddirResult {
  /** Directories and files directly under the path, sorted by path. */
  entries: ReaddirEntry[];
}

/** A piece of a file read by `readFileStream`. */
export interface FileChunk {
  data: Uint8Array;
  /** From 0. */
  index: number;
  totalChunks: number;
  isLast: boolean;
}

export interface ReadFileStreamOptions {
  /** Stops the read from storage when aborted: the iteration's next step rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes per chunk, the last one excepted; default 65536, between 1024 and 1048576. */
  chunkSize?: number;
}

/** The thread's files as a whole (`getFileStats`). */
export interface FileStats {
  fileCount: number;
  /** Directories that hold something or were made with `mkdirFile`, the root not counted. */
  directoryCount: number;
  /** Bytes of all files. */
  totalSize: number;
  /** Bytes the thread may hold; `null` when its storage has no quota. */
  quotaBytes: number | null;
}
