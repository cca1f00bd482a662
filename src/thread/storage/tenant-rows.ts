/**
 * The rows of a Tenant Durable Object (IDN-5, IDN-6): what its limits count. `tenant_events` holds
 * one row per admitted request or thread start, kept for the length of its window (a sliding-window
 * log: the count in the last minute or hour is exact); `tenant_turns` one lease per thread holding a
 * turn slot; `tenant_spend` the tokens and dollars of each UTC day, per principal and for the whole
 * tenant; `tenant_spend_holds` what model calls under way have reserved. The Tenant object
 * (thread/tenancy) decides what to admit; this file only keeps the rows, inside its transactions.
 */

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tenant_events (kind TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tenant_events_at ON tenant_events (kind, at);
CREATE TABLE IF NOT EXISTS tenant_turns (thread TEXT PRIMARY KEY, key TEXT NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tenant_spend (
  day TEXT NOT NULL, key TEXT NOT NULL, tokens INTEGER NOT NULL, cost REAL NOT NULL, PRIMARY KEY (day, key));
CREATE TABLE IF NOT EXISTS tenant_spend_holds (
  id TEXT NOT NULL, day TEXT NOT NULL, key TEXT NOT NULL, tokens INTEGER NOT NULL, cost REAL NOT NULL,
  expires INTEGER NOT NULL, PRIMARY KEY (id, key));
`;

/** Tokens and dollars: what a day has spent, or what a call reserves. */
export interface SpendAmount {
  tokens: number;
  cost: number;
}

export class TenantRows {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.sql.exec(SCHEMA);
  }

  // ---- sliding windows ----------------------------------------------------------------------

  /** Forgets the events of `kind` at or before `before`: they are out of every window. */
  dropEvents(kind: string, before: number): void {
    this.sql.exec('DELETE FROM tenant_events WHERE kind = ? AND at <= ?', kind, before);
  }

  /** The events of `kind` left (all of the tenant's, or `key`'s only): their count and the oldest. */
  events(kind: string, key?: string): { count: number; oldest: number | null } {
    const row = (
      key === undefined
        ? this.sql.exec<{ n: number; oldest: number | null }>(
            'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM tenant_events WHERE kind = ?',
            kind,
          )
        : this.sql.exec<{ n: number; oldest: number | null }>(
            'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM tenant_events WHERE kind = ? AND key = ?',
            kind,
            key,
          )
    ).one();
    return { count: row.n, oldest: row.oldest };
  }

  addEvent(kind: string, key: string, at: number): void {
    this.sql.exec('INSERT INTO tenant_events (kind, key, at) VALUES (?, ?, ?)', kind, key, at);
  }

  // ---- turn slots ---------------------------------------------------------------------------

  dropExpiredLeases(now: number): void {
    this.sql.exec('DELETE FROM tenant_turns WHERE expires <= ?', now);
  }

  /** Whether `thread` holds a slot. */
  holdsLease(thread: string): boolean {
    return this.sql.exec('SELECT 1 FROM tenant_turns WHERE thread = ?', thread).toArray().length > 0;
  }

  /** The slots held (all, or `key`'s) and the soonest expiry among them. */
  leases(key?: string): { count: number; soonest: number | null } {
    const row = (
      key === undefined
        ? this.sql.exec<{ n: number; soonest: number | null }>(
            'SELECT COUNT(*) AS n, MIN(expires) AS soonest FROM tenant_turns',
          )
        : this.sql.exec<{ n: number; soonest: number | null }>(
            'SELECT COUNT(*) AS n, MIN(expires) AS soonest FROM tenant_turns WHERE key = ?',
            key,
          )
    ).one();
    return { count: row.n, soonest: row.soonest };
  }

  putLease(thread: string, key: string, expires: number): void {
    this.sql.exec(
      'INSERT INTO tenant_turns (thread, key, expires) VALUES (?, ?, ?) ON CONFLICT (thread) DO UPDATE SET expires = excluded.expires',
      thread,
      key,
      expires,
    );
  }

  /** Moves a held slot's expiry; a slot already released or expired stays gone. */
  extendLease(thread: string, expires: number): void {
    this.sql.exec('UPDATE tenant_turns SET expires = ? WHERE thread = ?', expires, thread);
  }

  dropLease(thread: string): void {
    this.sql.exec('DELETE FROM tenant_turns WHERE thread = ?', thread);
  }

  // ---- daily spend --------------------------------------------------------------------------

  /** Forgets holds past their expiry and days before `day` (days compare as `YYYY-MM-DD`). */
  dropStaleSpend(day: string, now: number): void {
    this.sql.exec('DELETE FROM tenant_spend_holds WHERE expires <= ? OR day < ?', now, day);
    this.sql.exec('DELETE FROM tenant_spend WHERE day < ?', day);
  }

  /** What `key` spent on `day`, with what calls under way have reserved. */
  spent(day: string, key: string): SpendAmount {
    const recorded = this.sql
      .exec<{ tokens: number; cost: number }>(
        'SELECT tokens, cost FROM tenant_spend WHERE day = ? AND key = ?',
        day,
        key,
      )
      .toArray()[0];
    const held = this.sql
      .exec<{ tokens: number | null; cost: number | null }>(
        'SELECT SUM(tokens) AS tokens, SUM(cost) AS cost FROM tenant_spend_holds WHERE day = ? AND key = ?',
        day,
        key,
      )
      .one();
    return {
      tokens: (recorded?.tokens ?? 0) + (held.tokens ?? 0),
      cost: (recorded?.cost ?? 0) + (held.cost ?? 0),
    };
  }

  addSpend(day: string, key: string, amount: SpendAmount): void {
    this.sql.exec(
      `INSERT INTO tenant_spend (day, key, tokens, cost) VALUES (?, ?, ?, ?)
       ON CONFLICT (day, key) DO UPDATE SET tokens = tokens + excluded.tokens, cost = cost + excluded.cost`,
      day,
      key,
      amount.tokens,
      amount.cost,
    );
  }

  putHold(id: string, day: string, key: string, amount: SpendAmount, expires: number): void {
    this.sql.exec(
      'INSERT INTO tenant_spend_holds (id, day, key, tokens, cost, expires) VALUES (?, ?, ?, ?, ?, ?)',
      id,
      day,
      key,
      amount.tokens,
      amount.cost,
      expires,
    );
  }

  /** Drops a hold under every key it reserved. */
  dropHold(id: string): void {
    this.sql.exec('DELETE FROM tenant_spend_holds WHERE id = ?', id);
  }
}
