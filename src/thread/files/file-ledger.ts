/**
 * The sizes of a thread's files (ATT-6), in its SQLite: a row per file it holds in R2, and a row
 * per write under way. The object is the only writer of both, so the total survives eviction, an
 * overwrite replaces a file's size, a delete frees it, and a write a restart interrupted is settled
 * from what R2 holds (counted-file-store.ts). A write under way counts at its full size until it is
 * settled, so concurrent writes cannot pass the quota together. The rows are thread/storage's
 * (file-rows.ts); the quota's arithmetic is here.
 */
import { FileRows, type FileWriteRow } from '../storage/index.js';

/** What a write past the thread's quota throws; nothing of it is stored. */
export class StorageQuotaExceeded extends Error {
  constructor(
    readonly path: string,
    readonly bytes: number,
    /** Bytes the thread holds (writes under way included). */
    readonly used: number,
    readonly quota: number,
  ) {
    super(
      `storage quota exceeded: ${path} (${bytes} bytes) does not fit in this thread's ${quota} byte quota, ` +
        `of which ${used} bytes are used; delete files to make room`,
    );
    this.name = 'StorageQuotaExceeded';
  }
}

export interface CountedFile {
  path: string;
  size: number;
}

export class FileLedger {
  private readonly rows: FileRows;

  constructor(storage: DurableObjectStorage) {
    this.rows = new FileRows(storage);
  }

  /** Bytes the thread's files take, writes under way counted at their full size. */
  used(): number {
    return this.rows.heldBytes() + this.rows.reservedBytes();
  }

  /**
   * Records a write of `bytes` to `path` before it starts, or throws StorageQuotaExceeded. A write
   * that does not grow the file (a delete is a write of 0 bytes) always passes.
   */
  reserve(path: string, bytes: number, quota: number): number {
    const current = this.rows.sizeOf(path);
    const used = this.used();
    if (bytes > current && used - current + bytes > quota) throw new StorageQuotaExceeded(path, bytes, used, quota);
    return this.rows.addWrite(path, bytes);
  }

  /** Ends a write: the file now has `size` bytes, or is gone (null). */
  settle(write: number, size: number | null): void {
    const path = this.rows.removeWrite(write);
    if (path !== null) this.rows.setSize(path, size);
  }

  /** Drops a reservation that wrote nothing. */
  release(write: number): void {
    this.rows.removeWrite(write);
  }

  /** Writes a previous instance of the object began and never settled. */
  unsettled(): FileWriteRow[] {
    return this.rows.writes();
  }

  /** Records files stored without a write of this object's (copies handed to a new child, a listing). */
  record(files: readonly CountedFile[]): void {
    for (const file of files) this.rows.setSize(file.path, file.size);
  }
}
