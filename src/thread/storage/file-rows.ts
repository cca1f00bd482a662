/**
 * The `files` and `file_writes` tables: the size of each file a thread holds in R2, and each write
 * under way with the size it reserved. thread/files decides what fits the quota; this file only
 * keeps the rows.
 */

/** A write begun and not yet settled. */
export interface FileWriteRow {
  id: number;
  path: string;
}

export class FileRows {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
  }

  /** Bytes of the files held. */
  heldBytes(): number {
    return this.sql.exec<{ n: number }>('SELECT COALESCE(SUM(size), 0) AS n FROM files').one().n;
  }

  /** Bytes the writes under way reserved. */
  reservedBytes(): number {
    return this.sql.exec<{ n: number }>('SELECT COALESCE(SUM(size), 0) AS n FROM file_writes').one().n;
  }

  /** The size of the file at `path`, 0 when there is none. */
  sizeOf(path: string): number {
    return this.sql.exec<{ size: number }>('SELECT size FROM files WHERE path = ?', path).toArray()[0]?.size ?? 0;
  }

  /** Records the file at `path` as `size` bytes, or as gone (null). */
  setSize(path: string, size: number | null): void {
    if (size === null) this.sql.exec('DELETE FROM files WHERE path = ?', path);
    else this.sql.exec('INSERT OR REPLACE INTO files (path, size) VALUES (?, ?)', path, size);
  }

  /** Adds a write of `size` bytes to `path`; its id. */
  addWrite(path: string, size: number): number {
    return this.sql
      .exec<{ id: number }>('INSERT INTO file_writes (path, size) VALUES (?, ?) RETURNING id', path, size)
      .one().id;
  }

  /** Removes a write; the path it wrote, or null when it was removed already. */
  removeWrite(id: number): string | null {
    const row = this.sql.exec<{ path: string }>('DELETE FROM file_writes WHERE id = ? RETURNING path', id).toArray()[0];
    return row ? row.path : null;
  }

  writes(): FileWriteRow[] {
    return this.sql.exec<{ id: number; path: string }>('SELECT id, path FROM file_writes').toArray();
  }
}
