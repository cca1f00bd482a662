/**
 * The caller's side of its tenant's webhooks (WH-2): the Tenant object to ask, 501 `not_configured`
 * when the Worker has no TENANTS binding, and who the caller is to it (an admin sees the tenant's
 * endpoints, anyone else its own). Registering takes the member role, like starting a thread.
 */
import { type Principal, roleAtLeast } from '../../thread/access/index.js';
import type { RuntimeEnv, WebhookViewer } from '../../thread/bindings/index.js';
import { tenantStub } from '../../thread/tenancy/index.js';
import { HttpError } from '../contract/index.js';

export function webhookViewer(principal: Principal): WebhookViewer {
  return { subject: principal.subject, admin: principal.role === 'admin' };
}

export function webhookStub(env: RuntimeEnv, principal: Principal) {
  const stub = tenantStub(env, principal.tenant);
  if (!stub) {
    throw new HttpError({
      status: 501,
      code: 'not_configured',
      message: 'webhooks need the TENANTS Durable Object binding (wrangler.toml), which this Worker does not have',
    });
  }
  return stub;
}

/** Registering or changing an endpoint takes a member. */
export function mayManage(principal: Principal): void {
  if (!roleAtLeast(principal.role, 'member')) {
    throw new HttpError({
      status: 403,
      code: 'forbidden',
      message: `the ${principal.role} role may not manage webhooks`,
    });
  }
}
