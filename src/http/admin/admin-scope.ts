/**
 * What the admin routes share (IDN-2, IDN-4, IDN-8): only an admin reaches them, and an admin acts on
 * its own tenant — the bootstrap admin key (`ADMIN_KEY`) on any tenant a route names.
 */
import type { MiddlewareHandler } from 'hono';
import type { Principal } from '../../thread/access/index.js';
import type { AuditActor } from '../../thread/audit/index.js';
import { errorResponse, failure, type HttpEnv, HttpError } from '../contract/index.js';

/** Refuses every role but admin with 403 `forbidden`, before the request is read further. */
export function adminOnly(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (c.get('principal').role !== 'admin') {
      return errorResponse(c, { status: 403, code: 'forbidden', message: 'only an admin may do this' });
    }
    await next();
  };
}

export const ADMIN_ONLY = failure('`forbidden`: the caller is not an admin, or names a tenant not its own');

/** Whether the principal may act on `tenant`: its own, or any for the bootstrap admin key. */
export function actsOnTenant(principal: Principal, tenant: string): boolean {
  return tenant === principal.tenant || principal.via === 'admin_key';
}

/** The tenant a request names (or the caller's own), refused with 403 when it may not act there. */
export function namedTenant(principal: Principal, tenant: string | undefined): string {
  const named = tenant ?? principal.tenant;
  if (!actsOnTenant(principal, named)) {
    throw new HttpError({
      status: 403,
      code: 'forbidden',
      message: 'only the bootstrap admin key may act on another tenant',
    });
  }
  return named;
}

/** Who the audit log says made a change. */
export function auditActor(principal: Principal): AuditActor {
  return { subject: principal.subject, role: principal.role, via: principal.via };
}
