/**
 * The `file_history` table: what each path held before it changed, once per path per log position
 * (the seq of the newest message when the change was made). A row's `copy_key` is the R2 key of a
 * copy of the earlier bytes, or null when the path did not exist. thread/files decides what to
 * record, what a point in the log saw and what to drop; this file only keeps the rows. Made on first
 * use: a thread that never writes a file keeps no table.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

export interface HistoryRow {
  id: number;
  path: string;
  seq: number;
  /** Where the earlier bytes are kept in R2; null when the path did not exist before the change. */
  copyKey: string | null;
  /** Bytes of the copy (0 without one). */
  size: number;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS file_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path TEXT NOT NULL,
  seq INTEGER NOT NULL,
  copy_key TEXT,
  size INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL,
  UNIQUE (path, seq)
);
CREATE INDEX IF NOT EXISTS file_history_by_seq ON file_history (seq, id)`;

type Row = { id: number; path: string; seq: number; copy_key: string | null; size: number };

function fromRow(row: Row): HistoryRow {
  return { id: row.id, path: row.path, seq: row.seq, copyKey: row.copy_key, size: row.size };
}

export class HistoryRows {
  private readonly sql: SqlStorage;
  private readonly onFirstUse: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.onFirstUse = new TableOnFirstUse(this.sql, 'file_history', SCHEMA);
  }

  /** Whether `path` already has its record at `seq`. */
  has(path: string, seq: number): boolean {
    if (!this.onFirstUse.ready(false)) return false;
    return this.sql.exec('SELECT 1 FROM file_history WHERE path = ? AND seq = ?', path, seq).toArray().length > 0;
  }

  /** The record of `path` at `seq`, if any. */
  at(path: string, seq: number): HistoryRow | null {
    if (!this.onFirstUse.ready(false)) return null;
    const row = this.sql
      .exec<Row>('SELECT id, path, seq, copy_key, size FROM file_history WHERE path = ? AND seq = ?', path, seq)
      .toArray()[0];
    return row ? fromRow(row) : null;
  }

  /** Records what `path` held before its first change at `seq`; a second record of the pair is ignored. */
  record(path: string, seq: number, copyKey: string | null, size: number): boolean {
    this.onFirstUse.ready(true);
    const written = this.sql
      .exec(
        `INSERT OR IGNORE INTO file_history (path, seq, copy_key, size, recorded_at) VALUES (?, ?, ?, ?, ?)
         RETURNING id`,
        path,
        seq,
        copyKey,
        size,
        Date.now(),
      )
      .toArray();
    return written.length > 0;
  }

  /** For each path changed at `seq` or later, its earliest such record. */
  earliestFrom(seq: number): HistoryRow[] {
    if (!this.onFirstUse.ready(false)) return [];
    // SQLite gives the bare columns of the row that holds MIN(seq).
    return this.sql
      .exec<Row>(
        `SELECT id, path, MIN(seq) AS seq, copy_key, size FROM file_history WHERE seq >= ? GROUP BY path ORDER BY path`,
        seq,
      )
      .toArray()
      .map(fromRow);
  }

  /** Every record at `seq` or later (to be dropped with their copies). */
  from(seq: number): HistoryRow[] {
    if (!this.onFirstUse.ready(false)) return [];
    return this.sql
      .exec<Row>('SELECT id, path, seq, copy_key, size FROM file_history WHERE seq >= ? ORDER BY id', seq)
      .toArray()
      .map(fromRow);
  }

  /** Bytes of every copy kept. */
  bytes(): number {
    if (!this.onFirstUse.ready(false)) return 0;
    return this.sql.exec<{ n: number }>('SELECT COALESCE(SUM(size), 0) AS n FROM file_history').one().n;
  }

  /** The oldest records, oldest first, up to `limit`. */
  oldest(limit: number): HistoryRow[] {
    if (!this.onFirstUse.ready(false)) return [];
    return this.sql
      .exec<Row>('SELECT id, path, seq, copy_key, size FROM file_history ORDER BY seq, id LIMIT ?', limit)
      .toArray()
      .map(fromRow);
  }

  remove(ids: readonly number[]): void {
    if (!this.onFirstUse.ready(false)) return;
    // One statement per id: a statement binds at most 100 values.
    for (const id of ids) this.sql.exec('DELETE FROM file_history WHERE id = ?', id);
  }

  /** After the storage was erased. */
  forget(): void {
    this.onFirstUse.forget();
  }
}
