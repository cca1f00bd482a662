/**
 * The audit log, for admins: who made, rotated, revoked or changed keys, answered approvals, added
 * "allow always" rules and changed limits, newest first.
 */
import { expectOk, type TypedApi } from './http.js';
import type { AuditPage, ListAuditQuery } from './resources.js';

export interface AuditCalls {
  /** `GET /api/audit`: a page of entries, newest first; `next` is the `after` of the older page. */
  list(query?: ListAuditQuery): Promise<AuditPage>;
}

export function auditCalls(api: TypedApi): AuditCalls {
  return {
    list: (query) => expectOk(api.GET('/api/audit', { params: { query } })),
  };
}
