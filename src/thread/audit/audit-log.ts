/**
 * A tenant's audit log in D1 (IDN-8): every change an admin makes to keys and limits, every approval
 * answered and every "allow always" added, newest first. The table is created on first use in an
 * isolate, like the thread index, so a fresh database needs no migration step.
 */
import { isRole } from '../access/index.js';
import { schemaOnFirstUse } from '../bindings/index.js';
import { decodeAuditCursor, encodeAuditCursor } from './audit-cursor.js';
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntry,
  type AuditEntryInput,
  type AuditPage,
} from './audit-entry.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL,
    at INTEGER NOT NULL,
    actor_subject TEXT NOT NULL,
    actor_role TEXT NOT NULL,
    actor_via TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    detail TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS audit_log_by_tenant ON audit_log (tenant, id DESC)',
];

/** The most a `detail` may hold once written as JSON: a log line, not a store for documents. */
const MAX_DETAIL_CHARS = 4096;

const ensureSchema = schemaOnFirstUse(SCHEMA);

function detailText(detail: Record<string, unknown> | undefined): string | null {
  if (detail === undefined) return null;
  const text = JSON.stringify(detail);
  // Too long to be a fact about a change: keep the line, say what happened to the detail.
  return text.length <= MAX_DETAIL_CHARS ? text : JSON.stringify({ truncated: true });
}

/** Appends one entry to its tenant's log. */
export async function appendAudit(db: D1Database, entry: AuditEntryInput): Promise<void> {
  await ensureSchema(db);
  await db
    .prepare(
      `INSERT INTO audit_log (tenant, at, actor_subject, actor_role, actor_via, action, target, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      entry.tenant,
      Date.now(),
      entry.actor.subject,
      entry.actor.role,
      entry.actor.via,
      entry.action,
      entry.target ?? null,
      detailText(entry.detail),
    )
    .run();
}

interface AuditRow {
  id: number;
  tenant: string;
  at: number;
  actor_subject: string;
  actor_role: string;
  actor_via: string;
  action: string;
  target: string | null;
  detail: string | null;
}

function entryOfRow(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    tenant: row.tenant,
    at: row.at,
    actor: {
      subject: row.actor_subject,
      role: isRole(row.actor_role) ? row.actor_role : 'viewer',
      via: row.actor_via as AuditEntry['actor']['via'],
    },
    action: (AUDIT_ACTIONS as readonly string[]).includes(row.action) ? (row.action as AuditAction) : 'limits.changed',
    target: row.target,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  };
}

/** Thrown for an `after` that is not a cursor this log handed out. */
export class InvalidAuditCursor extends Error {
  constructor() {
    super('after is not a cursor from a previous page of the audit log');
  }
}

/**
 * One page of a tenant's log, newest first; `after` is the `next` of the page before. Only the
 * tenant's own entries are ever read.
 */
export async function listAudit(
  db: D1Database,
  tenant: string,
  options: { after?: string; limit: number },
): Promise<AuditPage> {
  let before = Number.MAX_SAFE_INTEGER;
  if (options.after !== undefined) {
    const decoded = decodeAuditCursor(options.after);
    if (decoded === null) throw new InvalidAuditCursor();
    before = decoded;
  }
  await ensureSchema(db);
  const { results } = await db
    .prepare('SELECT * FROM audit_log WHERE tenant = ? AND id < ? ORDER BY id DESC LIMIT ?')
    .bind(tenant, before, options.limit + 1)
    .all<AuditRow>();
  const entries = results.slice(0, options.limit).map(entryOfRow);
  const last = entries[entries.length - 1];
  return { entries, next: results.length > options.limit && last ? encodeAuditCursor(last.id) : null };
}
