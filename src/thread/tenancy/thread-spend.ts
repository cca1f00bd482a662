/**
 * A thread's side of its tenant's spend quotas (IDN-6): before each model call the thread's estimate
 * is held against the UTC day's quotas of its tenant and its owner, and after it the hold is settled
 * with what the call spent. This is the engine's `spend` port (ThreadHost), given to a thread only
 * when the Worker has a TENANTS binding.
 *
 * The hold is a round trip to the tenant's object before the model call. While this isolate's copy
 * of the tenant's limits (limits-cache.ts, at most a few seconds old) says no spend quota applies, a
 * call makes no round trip and is not counted: a quota counts the calls made while it is set.
 */
import type { SpendEstimate, SpendPort } from '../../engine/ports/index.js';
import type { RuntimeEnv, TenantLimits } from '../bindings/index.js';
import { ownerKey } from './admission.js';
import { cachedLimits, rememberLimits, tenantStub } from './limits-cache.js';

/** Whose quotas a thread's calls count against. */
export interface SpendOwner {
  tenant: string;
  subject: string;
}

/** The hold of a call no quota applied to: nothing to settle. */
const UNMETERED = 'unmetered';

/** Whether this isolate knows, recently, that no spend quota applies to the tenant. */
function knownUnmetered(tenant: string): boolean {
  const limits: TenantLimits | undefined = cachedLimits(tenant);
  if (!limits) return false;
  const { tenant: whole, principal } = limits;
  return [whole.tokensPerDay, whole.costPerDay, principal.tokensPerDay, principal.costPerDay].every(
    (limit) => limit == null,
  );
}

/** The spend port of a thread, or undefined when nothing is limited (no TENANTS binding). */
export function threadSpend(env: RuntimeEnv, owner: () => SpendOwner): SpendPort | undefined {
  if (!env.TENANTS) return undefined;
  return {
    async beforeModelCall(estimate: () => SpendEstimate) {
      const { tenant, subject } = owner();
      // Checked before the stub is made: naming the object costs a hash per call.
      if (knownUnmetered(tenant)) return { ok: true, hold: UNMETERED };
      const stub = tenantStub(env, tenant);
      if (!stub) return { ok: true, hold: UNMETERED };
      const { limits, ...decision } = await stub.holdSpend(ownerKey(subject), estimate());
      rememberLimits(tenant, limits);
      return decision.ok ? { ok: true, hold: decision.hold } : { ok: false, message: decision.message };
    },
    async afterModelCall(hold: string, spent: SpendEstimate | null) {
      const { tenant, subject } = owner();
      // A summary's call (hold '') is counted only while a quota applies, like any other.
      if (hold === UNMETERED || (hold === '' && knownUnmetered(tenant))) return;
      await tenantStub(env, tenant)?.settleSpend(hold, ownerKey(subject), spent);
    },
  };
}
