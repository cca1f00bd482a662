/**
 * The rows of a tenant's webhooks (WH-1..WH-8), kept in its Tenant Durable Object: `webhooks`, the
 * registered endpoints (their signing secret, the events they hear and whose threads); the outbox
 * `webhook_deliveries`, one row per event per endpoint with its exact body and when it is next due;
 * and `webhook_attempts`, each try of a delivery (time, status or network error, duration).
 * thread/webhooks decides what to send and when; this file only keeps the rows. Times are ms since
 * the epoch. The tables are made on first use: most tenants never register a webhook.
 */
import { TableOnFirstUse } from './table-on-first-use.js';

/** Whose threads an endpoint hears: the whole tenant, one owner's, or one thread's. */
export type WebhookScope = { kind: 'tenant' } | { kind: 'owner'; owner: string } | { kind: 'thread'; threadId: string };

export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  secret: string;
  scope: WebhookScope;
  /** The subject that registered it. */
  createdBy: string;
  createdAt: number;
  enabled: boolean;
  disabledReason: string | null;
  /** Failed attempts since the last success, across its deliveries. */
  failures: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  webhookId: string;
  type: string;
  threadId: string;
  /** The exact body sent, the same bytes on every attempt. */
  body: string;
  createdAt: number;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due; null once it is delivered or has failed for good. */
  nextAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
}

export interface AttemptRow {
  at: number;
  /** The HTTP status the endpoint answered; null when no answer came. */
  statusCode: number | null;
  /** Why no acceptable answer came (network error, refusal, redirect), or null. */
  error: string | null;
  durationMs: number;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL,
  scope_kind TEXT NOT NULL, scope_value TEXT, created_by TEXT NOT NULL, created_at INTEGER NOT NULL,
  enabled INTEGER NOT NULL, disabled_reason TEXT, failures INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, type TEXT NOT NULL, thread_id TEXT NOT NULL,
  body TEXT NOT NULL, created_at INTEGER NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER, last_status INTEGER, last_error TEXT);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_of ON webhook_deliveries (webhook_id, created_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  delivery_id TEXT NOT NULL, at INTEGER NOT NULL, status_code INTEGER, error TEXT, duration_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS webhook_attempts_of ON webhook_attempts (delivery_id, at)`;

type StoredWebhook = {
  id: string;
  url: string;
  events: string;
  secret: string;
  scope_kind: string;
  scope_value: string | null;
  created_by: string;
  created_at: number;
  enabled: number;
  disabled_reason: string | null;
  failures: number;
};

type StoredDelivery = {
  id: string;
  webhook_id: string;
  type: string;
  thread_id: string;
  body: string;
  created_at: number;
  status: string;
  attempts: number;
  next_at: number | null;
  last_status: number | null;
  last_error: string | null;
};

function scopeOf(kind: string, value: string | null): WebhookScope {
  if (kind === 'owner') return { kind, owner: value ?? '' };
  if (kind === 'thread') return { kind, threadId: value ?? '' };
  return { kind: 'tenant' };
}

function scopeValue(scope: WebhookScope): string | null {
  return scope.kind === 'owner' ? scope.owner : scope.kind === 'thread' ? scope.threadId : null;
}

function webhookOf(row: StoredWebhook): WebhookRow {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    secret: row.secret,
    scope: scopeOf(row.scope_kind, row.scope_value),
    createdBy: row.created_by,
    createdAt: row.created_at,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    failures: row.failures,
  };
}

function deliveryOf(row: StoredDelivery): DeliveryRow {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    type: row.type,
    threadId: row.thread_id,
    body: row.body,
    createdAt: row.created_at,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAt: row.next_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
  };
}

export class WebhookRows {
  private readonly sql: SqlStorage;
  private readonly onFirstUse: TableOnFirstUse;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.onFirstUse = new TableOnFirstUse(this.sql, 'webhooks', SCHEMA);
  }

  /** Whether the table exists; made first when `create` is true. */
  private ready(create: boolean): boolean {
    return this.onFirstUse.ready(create);
  }

  // ---- endpoints ----------------------------------------------------------------------------

  insertWebhook(row: WebhookRow): void {
    this.ready(true);
    this.sql.exec(
      `INSERT INTO webhooks (id, url, events, secret, scope_kind, scope_value, created_by, created_at, enabled,
       disabled_reason, failures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.url,
      JSON.stringify(row.events),
      row.secret,
      row.scope.kind,
      scopeValue(row.scope),
      row.createdBy,
      row.createdAt,
      row.enabled ? 1 : 0,
      row.disabledReason,
      row.failures,
    );
  }

  webhook(id: string): WebhookRow | null {
    if (!this.ready(false)) return null;
    const found = this.sql.exec<StoredWebhook>('SELECT * FROM webhooks WHERE id = ?', id).toArray()[0];
    return found ? webhookOf(found) : null;
  }

  /** Every endpoint, oldest first. */
  webhooks(): WebhookRow[] {
    if (!this.ready(false)) return [];
    return this.sql.exec<StoredWebhook>('SELECT * FROM webhooks ORDER BY created_at, id').toArray().map(webhookOf);
  }

  /** Writes an endpoint's changeable fields: url, events, enabled, disabled_reason, failures. */
  updateWebhook(row: WebhookRow): void {
    this.sql.exec(
      'UPDATE webhooks SET url = ?, events = ?, enabled = ?, disabled_reason = ?, failures = ? WHERE id = ?',
      row.url,
      JSON.stringify(row.events),
      row.enabled ? 1 : 0,
      row.disabledReason,
      row.failures,
      row.id,
    );
  }

  /** An endpoint and everything it was sent go. */
  deleteWebhook(id: string): void {
    if (!this.ready(false)) return;
    this.sql.exec(
      'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = ?)',
      id,
    );
    this.sql.exec('DELETE FROM webhook_deliveries WHERE webhook_id = ?', id);
    this.sql.exec('DELETE FROM webhooks WHERE id = ?', id);
  }

  /** The ids of the endpoints of thread `threadId` (given when it started). */
  webhooksOfThread(threadId: string): string[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<{ id: string }>(`SELECT id FROM webhooks WHERE scope_kind = 'thread' AND scope_value = ?`, threadId)
      .toArray()
      .map((row) => row.id);
  }

  // ---- the outbox ---------------------------------------------------------------------------

  insertDelivery(row: DeliveryRow): void {
    this.sql.exec(
      `INSERT INTO webhook_deliveries (id, webhook_id, type, thread_id, body, created_at, status, attempts, next_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.webhookId,
      row.type,
      row.threadId,
      row.body,
      row.createdAt,
      row.status,
      row.attempts,
      row.nextAt,
    );
  }

  delivery(id: string): DeliveryRow | null {
    if (!this.ready(false)) return null;
    const found = this.sql.exec<StoredDelivery>('SELECT * FROM webhook_deliveries WHERE id = ?', id).toArray()[0];
    return found ? deliveryOf(found) : null;
  }

  /** An endpoint's deliveries, newest first, at most `limit`, those before `before` (created_at) only when given. */
  deliveriesOf(webhookId: string, limit: number, before?: number): DeliveryRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<StoredDelivery>(
        `SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND created_at < ?
         ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        webhookId,
        before ?? Number.MAX_SAFE_INTEGER,
        limit,
      )
      .toArray()
      .map(deliveryOf);
  }

  /** Pending deliveries due by `now`, the soonest first, at most `limit`. */
  due(now: number, limit: number): DeliveryRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<StoredDelivery>(
        `SELECT * FROM webhook_deliveries WHERE status = 'pending' AND next_at <= ? ORDER BY next_at, rowid LIMIT ?`,
        now,
        limit,
      )
      .toArray()
      .map(deliveryOf);
  }

  /** When the soonest pending delivery is due, or null. */
  nextDue(): number | null {
    if (!this.ready(false)) return null;
    return this.sql
      .exec<{ due: number | null }>(`SELECT min(next_at) AS due FROM webhook_deliveries WHERE status = 'pending'`)
      .one().due;
  }

  /** A delivery's state after an attempt (or a replay, or its endpoint disabled). */
  updateDelivery(row: DeliveryRow): void {
    this.sql.exec(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ? WHERE id = ?`,
      row.status,
      row.attempts,
      row.nextAt,
      row.lastStatus,
      row.lastError,
      row.id,
    );
  }

  /** Every pending delivery of an endpoint ends as failed with `reason` (the endpoint was disabled). */
  failPending(webhookId: string, reason: string): void {
    this.sql.exec(
      `UPDATE webhook_deliveries SET status = 'failed', next_at = NULL, last_error = ? WHERE webhook_id = ? AND status = 'pending'`,
      reason,
      webhookId,
    );
  }

  addAttempt(deliveryId: string, attempt: AttemptRow): void {
    this.sql.exec(
      'INSERT INTO webhook_attempts (delivery_id, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?)',
      deliveryId,
      attempt.at,
      attempt.statusCode,
      attempt.error,
      attempt.durationMs,
    );
  }

  /** A delivery's attempts, oldest first. */
  attempts(deliveryId: string): AttemptRow[] {
    if (!this.ready(false)) return [];
    return this.sql
      .exec<{ at: number; status_code: number | null; error: string | null; duration_ms: number }>(
        'SELECT at, status_code, error, duration_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY at, rowid',
        deliveryId,
      )
      .toArray()
      .map((row) => ({ at: row.at, statusCode: row.status_code, error: row.error, durationMs: row.duration_ms }));
  }

  /** Finished deliveries created before `before` go with their attempts: the history stays bounded. */
  pruneBefore(before: number): void {
    if (!this.ready(false)) return;
    const finished = `SELECT id FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?`;
    this.sql.exec(`DELETE FROM webhook_attempts WHERE delivery_id IN (${finished})`, before);
    this.sql.exec(`DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?`, before);
  }
}
