/**
 * Schedules' rows: a thread's own (`schedules`, in the thread's SQLite) and a tenant's thread-starting
 * ones (`tenant_schedules`, in the Tenant object's), one shape for both. thread/schedules decides
 * when each fires; this file only keeps the rows. The row holds the last tick fired: `markFired`
 * moves it forward only past the tick it holds, inside the caller's transaction with what the firing
 * stored, so one tick is fired once however often an alarm runs it. Times are ms since the epoch.
 * The table is made on first use: most threads never have a schedule, and keep no table for one.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

export interface ScheduleRow {
  id: string;
  name: string | null;
  /** `agent`: installed from the agent's definition; `api`: made through the API. */
  source: 'agent' | 'api';
  cron: string | null;
  at: number | null;
  timezone: string;
  /** The message posted when it fires, scrubbed of the thread's secrets. */
  message: string;
  missed: 'run_once' | 'skip';
  onBusy: string | null;
  paused: boolean;
  createdAt: number;
  /** The subject that made it (null for an agent's). */
  createdBy: string | null;
  /** The next tick to fire; null once a one-off has fired. */
  nextAt: number | null;
  lastTick: number | null;
  lastFiredAt: number | null;
  firedCount: number;
  /** What the last tick did: `fired`, `skipped: missed`, `refused: <code>`. */
  lastOutcome: string | null;
  /** A tenant schedule's thread start (JSON: agent, owner, title, tags); null for a thread's own. */
  start: Record<string, unknown> | null;
  /** A tenant schedule's thread started by its last tick. */
  lastThread: string | null;
  /** Whether that thread is not yet known created (its start is retried until it is). */
  threadPending: boolean;
}

type Stored = {
  id: string;
  name: string | null;
  source: string;
  cron: string | null;
  at: number | null;
  timezone: string;
  message: string;
  missed: string;
  on_busy: string | null;
  paused: number;
  created_at: number;
  created_by: string | null;
  next_at: number | null;
  last_tick: number | null;
  last_fired_at: number | null;
  fired_count: number;
  last_outcome: string | null;
  start: string | null;
  last_thread: string | null;
  thread_pending: number;
};

const COLUMNS = `id, name, source, cron, at, timezone, message, missed, on_busy, paused, created_at, created_by,
  next_at, last_tick, last_fired_at, fired_count, last_outcome, start, last_thread, thread_pending`;

function schema(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
  id TEXT PRIMARY KEY, name TEXT, source TEXT NOT NULL, cron TEXT, at INTEGER, timezone TEXT NOT NULL,
  message TEXT NOT NULL, missed TEXT NOT NULL, on_busy TEXT, paused INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL, created_by TEXT, next_at INTEGER, last_tick INTEGER, last_fired_at INTEGER,
  fired_count INTEGER NOT NULL DEFAULT 0, last_outcome TEXT, start TEXT, last_thread TEXT,
  thread_pending INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (paused, next_at)`;
}

function rowOf(stored: Stored): ScheduleRow {
  return {
    id: stored.id,
    name: stored.name,
    source: stored.source === 'agent' ? 'agent' : 'api',
    cron: stored.cron,
    at: stored.at,
    timezone: stored.timezone,
    message: stored.message,
    missed: stored.missed === 'skip' ? 'skip' : 'run_once',
    onBusy: stored.on_busy,
    paused: stored.paused === 1,
    createdAt: stored.created_at,
    createdBy: stored.created_by,
    nextAt: stored.next_at,
    lastTick: stored.last_tick,
    lastFiredAt: stored.last_fired_at,
    firedCount: stored.fired_count,
    lastOutcome: stored.last_outcome,
    start: stored.start === null ? null : (JSON.parse(stored.start) as Record<string, unknown>),
    lastThread: stored.last_thread,
    threadPending: stored.thread_pending === 1,
  };
}

/** What a new row is given; the rest starts empty. */
export type NewScheduleRow = Omit<
  ScheduleRow,
  'lastTick' | 'lastFiredAt' | 'firedCount' | 'lastOutcome' | 'lastThread' | 'threadPending'
>;

/** What one tick did to its row. */
export interface TickRecord {
  tick: number;
  nextAt: number | null;
  at: number;
  outcome: string;
  /** Counted as fired (a message stored, a thread started). */
  fired: boolean;
  /** A tenant schedule's thread, started once the tick is recorded. */
  thread?: string;
}

export class ScheduleRows {
  private readonly sql: SqlStorage;
  private readonly onFirstUse: TableOnFirstUse;

  constructor(
    storage: DurableObjectStorage,
    private readonly table: 'schedules' | 'tenant_schedules' = 'schedules',
  ) {
    this.sql = storage.sql;
    this.onFirstUse = new TableOnFirstUse(this.sql, this.table, schema(this.table));
  }

  /** Whether the table exists; made first when `create` is true. */
  private ready(create: boolean): boolean {
    return this.onFirstUse.ready(create);
  }

  insert(row: NewScheduleRow): void {
    this.ready(true);
    this.sql.exec(
      `INSERT INTO ${this.table} (id, name, source, cron, at, timezone, message, missed, on_busy, paused,
         created_at, created_by, next_at, start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.name,
      row.source,
      row.cron,
      row.at,
      row.timezone,
      row.message,
      row.missed,
      row.onBusy,
      row.paused ? 1 : 0,
      row.createdAt,
      row.createdBy,
      row.nextAt,
      row.start === null ? null : JSON.stringify(row.start),
    );
  }

  get(id: string): ScheduleRow | null {
    if (!this.ready(false)) return null;
    const found = this.sql.exec<Stored>(`SELECT ${COLUMNS} FROM ${this.table} WHERE id = ?`, id).toArray()[0];
    return found ? rowOf(found) : null;
  }

  /** Every row, oldest first. */
  list(): ScheduleRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<Stored>(`SELECT ${COLUMNS} FROM ${this.table} ORDER BY created_at, rowid`)
      .toArray()
      .map(rowOf);
  }

  count(where?: { createdBy: string }): number {
    if (!this.ready(false)) return 0;
    if (!where) return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${this.table}`).one().n;
    return this.sql
      .exec<{ n: number }>(`SELECT count(*) AS n FROM ${this.table} WHERE created_by = ?`, where.createdBy)
      .one().n;
  }

  /** Active rows due by `now`, the soonest first. */
  due(now: number): ScheduleRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<Stored>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE paused = 0 AND next_at IS NOT NULL AND next_at <= ?
         ORDER BY next_at, rowid`,
        now,
      )
      .toArray()
      .map(rowOf);
  }

  /** When the soonest active row is due, or null. */
  nextDue(): number | null {
    if (!this.ready(false)) return null;
    return this.sql
      .exec<{ due: number | null }>(
        `SELECT min(next_at) AS due FROM ${this.table} WHERE paused = 0 AND next_at IS NOT NULL`,
      )
      .one().due;
  }

  /** Rows whose last tick's thread is not yet known created (a tenant's). */
  pending(): ScheduleRow[] {
    if (!this.ready(false)) return [];
    return this.sql.exec<Stored>(`SELECT ${COLUMNS} FROM ${this.table} WHERE thread_pending = 1`).toArray().map(rowOf);
  }

  /** Pauses or resumes a row; a resumed one is next due at `nextAt`. False when unknown. */
  setPaused(id: string, paused: boolean, nextAt: number | null): boolean {
    if (!this.ready(false)) return false;
    const cursor = paused
      ? this.sql.exec(`UPDATE ${this.table} SET paused = 1 WHERE id = ?`, id)
      : this.sql.exec(`UPDATE ${this.table} SET paused = 0, next_at = ? WHERE id = ?`, nextAt, id);
    return cursor.rowsWritten > 0;
  }

  delete(id: string): boolean {
    if (!this.ready(false)) return false;
    return this.sql.exec(`DELETE FROM ${this.table} WHERE id = ?`, id).rowsWritten > 0;
  }

  /**
   * Records a tick, only if it is later than the last one recorded: false when it was recorded
   * already (the caller's transaction is then to be undone, so nothing is stored twice).
   */
  markTick(id: string, record: TickRecord): boolean {
    if (!this.ready(false)) return false;
    const cursor = this.sql.exec(
      `UPDATE ${this.table} SET last_tick = ?, next_at = ?, last_outcome = ?,
         last_fired_at = CASE WHEN ? THEN ? ELSE last_fired_at END, fired_count = fired_count + ?,
         last_thread = coalesce(?, last_thread), thread_pending = ?
       WHERE id = ? AND (last_tick IS NULL OR last_tick < ?)`,
      record.tick,
      record.nextAt,
      record.outcome,
      record.fired ? 1 : 0,
      record.at,
      record.fired ? 1 : 0,
      record.thread ?? null,
      record.thread ? 1 : 0,
      id,
      record.tick,
    );
    return cursor.rowsWritten > 0;
  }

  /**
   * A row whose due tick was recorded already (its next tick left behind): the next tick moves
   * forward to `nextAt`, never back, so the alarm is not set again for a tick that is spent.
   */
  advance(id: string, nextAt: number | null): void {
    if (!this.ready(false)) return;
    this.sql.exec(
      `UPDATE ${this.table} SET next_at = ? WHERE id = ? AND next_at IS NOT NULL AND (? IS NULL OR next_at < ?)`,
      nextAt,
      id,
      nextAt,
      nextAt,
    );
  }

  /** A tenant schedule's thread is known created (or known refused): `outcome` says which. */
  settlePending(id: string, thread: string, outcome: string): void {
    this.sql.exec(
      `UPDATE ${this.table} SET thread_pending = 0, last_outcome = ? WHERE id = ? AND last_thread = ?`,
      outcome,
      id,
      thread,
    );
  }
}
