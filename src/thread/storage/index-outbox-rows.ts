/**
 * The thread's outbox to the D1 index (THR-1): what the index has still to be told, kept in the
 * thread's own SQLite so that it survives an eviction or a restart. One row at most: the thread's
 * index row while D1 has not accepted it, and the newest status change (only the newest needs
 * sending: each one replaces the one before). `version` grows with every change recorded, so a send
 * that finished while a newer change was recorded removes only what it sent.
 *
 * The table is made when a thread records its first change (its creation), in the transaction of
 * that change; an object in which no thread was ever created has none.
 *
 * A send that went through is remembered in memory and written with the next change, not on its
 * own: a write of its own, after D1's answer, would cost the object a transaction of its own per
 * status (two a turn). An instance that dies first sends its last status once more (an upsert, so
 * the index is unchanged). After a failed try the outcome is written at once, as the retry's
 * schedule depends on it.
 */
import type { IndexedThread } from '../bindings/index.js';
import { TableOnFirstUse } from './table-on-first-use.js';

const SCHEMA = `CREATE TABLE IF NOT EXISTS index_outbox (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  row TEXT,
  change TEXT,
  version INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER,
  refused TEXT
)`;

/** What the index has not been told yet. */
export interface OutboxEntry<Change> {
  /** The thread's row, until D1 has accepted it; null once it has. */
  row: IndexedThread | null;
  /** The newest status change not yet sent, or null. */
  change: Change | null;
  version: number;
  /** Failed sends since the last one that went through. */
  attempts: number;
  /** When the next try is due after a failure; null while none failed. */
  nextAt: number | null;
  /** Why D1 refused it for good; null while it may still be accepted. */
  refused: string | null;
}

/** What the index writes keep: the SQLite table below, or a stand-in in Node tests. */
export interface IndexOutbox<Change> {
  recordRow(row: IndexedThread): void;
  recordChange(change: Change): void;
  pending(): OutboxEntry<Change> | null;
  /** D1 accepted what `version` held: removed, unless a newer change came meanwhile (then the row only). */
  sent(version: number): void;
  failed(attempts: number, nextAt: number): void;
  refuse(reason: string): void;
  forget(): void;
}

type Stored = {
  row: string | null;
  change: string | null;
  version: number;
  attempts: number;
  next_at: number | null;
  refused: string | null;
};

export class IndexOutboxRows<Change> implements IndexOutbox<Change> {
  private readonly table: TableOnFirstUse;
  /** The newest version D1 accepted and the table does not say yet; null when it says all. */
  private acked: number | null = null;
  /** A try failed or was refused since the table was last cleared: the next success is written. */
  private troubled = false;

  constructor(private readonly storage: DurableObjectStorage) {
    this.table = new TableOnFirstUse(storage.sql, 'index_outbox', SCHEMA);
  }

  recordRow(row: IndexedThread): void {
    this.table.ready(true);
    this.acked = null;
    this.storage.sql.exec(
      `INSERT OR REPLACE INTO index_outbox (slot, row, change, version, attempts, next_at, refused)
       VALUES (1, ?, NULL, 1, 0, NULL, NULL)`,
      JSON.stringify(row),
    );
  }

  /** A new change replaces the one waiting, and may be accepted where the one before was refused. */
  recordChange(change: Change): void {
    this.table.ready(true);
    // An accepted send carried the row (every send does while it waits): the row is in the index.
    this.storage.sql.exec(
      `INSERT INTO index_outbox (slot, change, version) VALUES (1, ?, 1)
       ON CONFLICT (slot) DO UPDATE SET change = excluded.change, version = version + 1, refused = NULL,
         row = CASE WHEN ? THEN NULL ELSE row END`,
      JSON.stringify(change),
      this.acked === null ? 0 : 1,
    );
  }

  pending(): OutboxEntry<Change> | null {
    if (!this.table.ready(false)) return null;
    const stored = this.storage.sql
      .exec<Stored>('SELECT row, change, version, attempts, next_at, refused FROM index_outbox WHERE slot = 1')
      .toArray()[0];
    if (!stored || (this.acked !== null && stored.version <= this.acked)) return null;
    // A failure recorded by an instance before this one: its success must clear it in the table.
    if (stored.attempts > 0 || stored.next_at !== null || stored.refused !== null) this.troubled = true;
    return {
      row: stored.row === null || this.acked !== null ? null : (JSON.parse(stored.row) as IndexedThread),
      change: stored.change === null ? null : (JSON.parse(stored.change) as Change),
      version: stored.version,
      attempts: stored.attempts,
      nextAt: stored.next_at,
      refused: stored.refused,
    };
  }

  sent(version: number): void {
    if (!this.table.ready(false)) return;
    if (!this.troubled) {
      this.acked = Math.max(this.acked ?? 0, version);
      return;
    }
    this.troubled = false;
    this.acked = null;
    const removed = this.storage.sql.exec('DELETE FROM index_outbox WHERE slot = 1 AND version = ?', version);
    if (removed.rowsWritten > 0) return;
    // A newer change waits: the row is in the index now, and what was sent was not the newest.
    this.storage.sql.exec('UPDATE index_outbox SET row = NULL, attempts = 0, next_at = NULL WHERE slot = 1');
  }

  failed(attempts: number, nextAt: number): void {
    if (!this.table.ready(false)) return;
    this.troubled = true;
    this.storage.sql.exec('UPDATE index_outbox SET attempts = ?, next_at = ? WHERE slot = 1', attempts, nextAt);
  }

  refuse(reason: string): void {
    if (!this.table.ready(false)) return;
    this.troubled = true;
    this.storage.sql.exec('UPDATE index_outbox SET refused = ?, next_at = NULL WHERE slot = 1', reason);
  }

  /** After the storage was erased. */
  forget(): void {
    this.acked = null;
    this.troubled = false;
    this.table.forget();
  }
}
