/**
 * The audit log (IDN-8): each tenant's record of who changed keys, roles and limits, who answered
 * approvals and added "allow always" rules. Kept in D1 beside the thread index; read by admins
 * through `GET /api/audit`.
 */
export {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditActor,
  type AuditEntry,
  type AuditEntryInput,
  type AuditPage,
} from './audit-entry.js';
export { appendAudit, InvalidAuditCursor, listAudit } from './audit-log.js';
