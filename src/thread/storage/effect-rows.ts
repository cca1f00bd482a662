/**
 * The `effects` table: a thread's scheduled effects (the Effects chapter) and the history of those
 * that ran, were cancelled or failed. thread/effects schedules and runs them; this file only keeps
 * the rows. Times are milliseconds since the epoch. The table is made on first use, not with the
 * thread's schema: most threads never schedule an effect, and such a thread keeps no table for it.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

export type EffectStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface EffectRow {
  id: string;
  name: string;
  /** The arguments, scrubbed of the thread's secrets (EXE-8). */
  args: Record<string, unknown>;
  dueAt: number;
  createdAt: number;
  status: EffectStatus;
  /** How many times a run was started: more than one only for an idempotent effect run again after a restart. */
  attempts: number;
  /** Why it failed, scrubbed. */
  error: string | null;
  startedAt: number | null;
  finishedAt: number | null;
}

/** Finished runs kept for inspection: the newest this many. */
export const EFFECT_HISTORY_KEPT = 100;

const SCHEMA = `CREATE TABLE IF NOT EXISTS effects (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  args TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS effects_by_status ON effects (status, due_at)`;

type Stored = {
  id: string;
  name: string;
  args: string;
  due_at: number;
  created_at: number;
  status: string;
  attempts: number;
  error: string | null;
  started_at: number | null;
  finished_at: number | null;
};

const COLUMNS = 'id, name, args, due_at, created_at, status, attempts, error, started_at, finished_at';

function rowOf(stored: Stored): EffectRow {
  return {
    id: stored.id,
    name: stored.name,
    args: JSON.parse(stored.args) as Record<string, unknown>,
    dueAt: stored.due_at,
    createdAt: stored.created_at,
    status: stored.status as EffectStatus,
    attempts: stored.attempts,
    error: stored.error,
    startedAt: stored.started_at,
    finishedAt: stored.finished_at,
  };
}

export class EffectRows {
  private readonly sql: SqlStorage;
  private readonly onFirstUse: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.onFirstUse = new TableOnFirstUse(this.sql, 'effects', SCHEMA);
  }

  /** Whether the table exists; made first when `create` is true. */
  private ready(create: boolean): boolean {
    return this.onFirstUse.ready(create);
  }

  insert(row: Pick<EffectRow, 'id' | 'name' | 'args' | 'dueAt' | 'createdAt'>): void {
    this.ready(true);
    this.sql.exec(
      `INSERT INTO effects (id, name, args, due_at, created_at, status) VALUES (?, ?, ?, ?, ?, 'pending')`,
      row.id,
      row.name,
      JSON.stringify(row.args),
      row.dueAt,
      row.createdAt,
    );
  }

  get(id: string): EffectRow | null {
    if (!this.ready(false)) return null;
    const found = this.sql.exec<Stored>(`SELECT ${COLUMNS} FROM effects WHERE id = ?`, id).toArray()[0];
    return found ? rowOf(found) : null;
  }

  /** Rows in `status`, `name`'s only when given, the soonest due first. */
  withStatus(status: EffectStatus, name?: string): EffectRow[] {
    if (!this.ready(false)) return [];
    const where = name === undefined ? 'status = ?' : 'status = ? AND name = ?';
    const params = name === undefined ? [status] : [status, name];
    return this.sql
      .exec<Stored>(`SELECT ${COLUMNS} FROM effects WHERE ${where} ORDER BY due_at, created_at, rowid`, ...params)
      .toArray()
      .map(rowOf);
  }

  /** How many rows are in `status`. */
  count(status: EffectStatus): number {
    if (!this.ready(false)) return 0;
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM effects WHERE status = ?', status).one().n;
  }

  /** The newest finished rows (completed, failed, cancelled), newest first. */
  finished(limit: number): EffectRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<Stored>(
        `SELECT ${COLUMNS} FROM effects WHERE status IN ('completed', 'failed', 'cancelled')
         ORDER BY finished_at DESC, rowid DESC LIMIT ?`,
        limit,
      )
      .toArray()
      .map(rowOf);
  }

  /** When the soonest waiting row is due, or null. */
  nextDue(): number | null {
    if (!this.ready(false)) return null;
    return this.sql
      .exec<{ due: number | null }>(`SELECT min(due_at) AS due FROM effects WHERE status = 'pending'`)
      .one().due;
  }

  /** The soonest waiting row due by `now`, marked running (its attempt counted), or null. */
  claimDue(now: number): EffectRow | null {
    if (!this.ready(false)) return null;
    const found = this.sql
      .exec<Stored>(
        `SELECT ${COLUMNS} FROM effects WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, created_at, rowid LIMIT 1`,
        now,
      )
      .toArray()[0];
    if (!found) return null;
    this.sql.exec(
      `UPDATE effects SET status = 'running', attempts = attempts + 1, started_at = ? WHERE id = ?`,
      now,
      found.id,
    );
    return { ...rowOf(found), status: 'running', attempts: found.attempts + 1, startedAt: now };
  }

  /** A waiting row cancelled: false when it is unknown or no longer waiting. */
  cancel(id: string, now: number): boolean {
    if (!this.ready(false)) return false;
    const cursor = this.sql.exec(
      `UPDATE effects SET status = 'cancelled', finished_at = ? WHERE id = ? AND status = 'pending'`,
      now,
      id,
    );
    return cursor.rowsWritten > 0;
  }

  /** A running row ends: completed, or failed with why. */
  finish(id: string, status: 'completed' | 'failed', error: string | null, now: number): void {
    this.sql.exec(
      `UPDATE effects SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'`,
      status,
      error,
      now,
      id,
    );
  }

  /** A running row found after a restart, to be run again. */
  requeue(id: string): void {
    this.sql.exec(`UPDATE effects SET status = 'pending', started_at = NULL WHERE id = ? AND status = 'running'`, id);
  }

  /** Finished rows beyond the newest `kept` go: the history stays bounded. */
  prune(kept: number = EFFECT_HISTORY_KEPT): void {
    if (!this.ready(false)) return;
    this.sql.exec(
      `DELETE FROM effects WHERE status IN ('completed', 'failed', 'cancelled') AND id NOT IN (
         SELECT id FROM effects WHERE status IN ('completed', 'failed', 'cancelled')
         ORDER BY finished_at DESC, rowid DESC LIMIT ?)`,
      kept,
    );
  }
}
