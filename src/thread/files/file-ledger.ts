/**
 * The sizes of a thread's files (ATT-6), in its SQLite: a row per file it holds in R2, and a row
 * per write under way. The object is the only writer of both, so the total survives eviction, an
 * overwrite replaces a file's size, a delete frees it, and a write a restart interrupted is settled
 * from what R2 holds (counted-file-store.ts). A write under way counts at its full size until it is
 * settled, so concurrent writes cannot pass the quota together.
 */

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
  constructor(private readonly sql: SqlStorage) {}

  /** Bytes the thread's files take, writes under way counted at their full size. */
  used(): number {
    const held = this.sql.exec<{ n: number }>('SELECT COALESCE(SUM(size), 0) AS n FROM files').one().n;
    const writing = this.sql.exec<{ n: number }>('SELECT COALESCE(SUM(size), 0) AS n FROM file_writes').one().n;
    return held + writing;
  }

  private sizeOf(path: string): number {
    return this.sql.exec<{ size: number }>('SELECT size FROM files WHERE path = ?', path).toArray()[0]?.size ?? 0;
  }

  /**
   * Records a write of `bytes` to `path` before it starts, or throws StorageQuotaExceeded. A write
   * that does not grow the file (a delete is a write of 0 bytes) always passes.
   */
  reserve(path: string, bytes: number, quota: number): number {
    const current = this.sizeOf(path);
    const used = this.used();
    if (bytes > current && used - current + bytes > quota) throw new StorageQuotaExceeded(path, bytes, used, quota);
    return this.sql
      .exec<{ id: number }>('INSERT INTO file_writes (path, size) VALUES (?, ?) RETURNING id', path, bytes)
      .one().id;
  }

  /** Ends a write: the file now has `size` bytes, or is gone (null). */
  settle(write: number, size: number | null): void {
    const row = this.sql
      .exec<{ path: string }>('DELETE FROM file_writes WHERE id = ? RETURNING path', write)
      .toArray()[0];
    if (row) this.setSize(row.path, size);
  }

  private setSize(path: string, size: number | null): void {
    if (size === null) this.sql.exec('DELETE FROM files WHERE path = ?', path);
    else this.sql.exec('INSERT OR REPLACE INTO files (path, size) VALUES (?, ?)', path, size);
  }

  /** Drops a reservation that wrote nothing. */
  release(write: number): void {
    this.sql.exec('DELETE FROM file_writes WHERE id = ?', write);
  }

  /** Writes a previous instance of the object began and never settled. */
  unsettled(): { id: number; path: string }[] {
    return this.sql.exec<{ id: number; path: string }>('SELECT id, path FROM file_writes').toArray();
  }

  /** Records files stored without a write of this object's (copies handed to a new child, a listing). */
  record(files: readonly CountedFile[]): void {
    for (const file of files) this.setSize(file.path, file.size);
  }
}
