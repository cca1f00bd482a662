/**
 * The `idempotency` table: a client's Idempotency-Key and the message it stored, with the hash of
 * that message's content (thread/inbox decides what a retry is answered; this file only keeps the
 * rows). Read once per message that carries a key, never mirrored: a key is rarely asked twice.
 * Made on first use: most threads are never sent a key, and keep no table for them.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

/** What a key stored: the message's id and its content's hash (null in rows older than the hash). */
export interface IdempotencyRow {
  messageId: string;
  bodyHash: string | null;
}

const SCHEMA =
  'CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, message_id TEXT NOT NULL, body_hash TEXT)';

export class IdempotencyRows {
  private readonly sql: SqlStorage;
  private readonly table: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.table = new TableOnFirstUse(storage.sql, 'idempotency', SCHEMA);
  }

  find(key: string): IdempotencyRow | null {
    if (!this.table.ready(false)) return null;
    const row = this.sql
      .exec<{ message_id: string; body_hash: string | null }>(
        'SELECT message_id, body_hash FROM idempotency WHERE key = ?',
        key,
      )
      .toArray()[0];
    return row ? { messageId: row.message_id, bodyHash: row.body_hash } : null;
  }

  /** Runs inside the caller's transaction, beside the message it names. */
  record(key: string, messageId: string, bodyHash: string | null): void {
    this.table.ready(true);
    this.sql.exec('INSERT INTO idempotency (key, message_id, body_hash) VALUES (?, ?, ?)', key, messageId, bodyHash);
  }
}
