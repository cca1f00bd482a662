/**
 * The `turn_undo` table: the running turn's file undo journal. The first change of each path in a
 * turn records what the path held before: nothing (`undo_key` null), or a copy of its bytes kept in
 * R2 under `undo_key`. A turn rolled back by a new message puts each path back from here; a turn
 * that ends any other way clears it. The table is made on first use: a thread whose turns never
 * write a file keeps none, and its turns pay one cached check at their end.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

export interface UndoRow {
  path: string;
  /** Where the path's earlier bytes are kept in R2; null when the path did not exist. */
  undoKey: string | null;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS turn_undo (
  path TEXT PRIMARY KEY,
  undo_key TEXT,
  recorded_at INTEGER NOT NULL
)`;

export class UndoRows {
  private readonly sql: SqlStorage;
  private readonly onFirstUse: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.onFirstUse = new TableOnFirstUse(this.sql, 'turn_undo', SCHEMA);
  }

  /** Whether the table exists; made first when `create` is true. */
  private ready(create: boolean): boolean {
    return this.onFirstUse.ready(create);
  }

  /** Records a path's state before the turn changed it; a path already recorded keeps its first record. */
  record(path: string, undoKey: string | null): void {
    this.ready(true);
    this.sql.exec(
      'INSERT OR IGNORE INTO turn_undo (path, undo_key, recorded_at) VALUES (?, ?, ?)',
      path,
      undoKey,
      Date.now(),
    );
  }

  all(): UndoRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<{ path: string; undo_key: string | null }>('SELECT path, undo_key FROM turn_undo ORDER BY rowid')
      .toArray()
      .map((row) => ({ path: row.path, undoKey: row.undo_key }));
  }

  /** Drops one path's record (it has been put back). */
  remove(path: string): void {
    if (this.ready(false)) this.sql.exec('DELETE FROM turn_undo WHERE path = ?', path);
  }

  /** Forgets every record (the turn is over, or has been put back). */
  clear(): void {
    if (this.ready(false)) this.sql.exec('DELETE FROM turn_undo');
  }

  /** After the storage was erased. */
  forget(): void {
    this.onFirstUse.forget();
  }
}
