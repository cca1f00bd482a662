/**
 * What one line of a tenant's audit log says (IDN-8): who did what to which thing, and when. Only
 * names, ids and roles go in: never a key, a token or a secret value.
 */
import type { Role, SignIn } from '../access/index.js';

/** The changes the log records. */
export const AUDIT_ACTIONS = [
  'key.created',
  'key.rotated',
  'key.revoked',
  'key.role_changed',
  'key.renamed',
  'approval.answered',
  'permission.always_added',
  'limits.changed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made the change: the principal's subject, role and how it signed in. */
export interface AuditActor {
  subject: string;
  role: Role;
  via: SignIn;
}

/** What a caller appends. */
export interface AuditEntryInput {
  tenant: string;
  actor: AuditActor;
  action: AuditAction;
  /** The id of what changed: a key id, a thread id... */
  target?: string;
  /** Facts about the change (a role before and after, a key's name...), never a secret. */
  detail?: Record<string, unknown>;
}

/** A stored entry as the log lists it. */
export interface AuditEntry {
  /** Ascending in the order entries were appended. */
  id: number;
  tenant: string;
  /** Epoch milliseconds. */
  at: number;
  actor: AuditActor;
  action: AuditAction;
  target: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The cursor of the next (older) page, or null on the last page. */
  next: string | null;
}
