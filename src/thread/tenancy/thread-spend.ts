/**
 * A thread's side of its tenant's spend quotas (IDN-6): before each model call the thread's estimate
 * is held against the UTC day's quotas of its tenant and its owner, and after it the hold is settled
 * with what the call spent. This is the engine's `spend` port (ThreadHost), given to a thread only
 * when the Worker has a TENANTS binding.
 */
import type { SpendEstimate, SpendPort } from '../../engine/ports/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { ownerKey } from './admission.js';
import { tenantStub } from './limits-cache.js';

/** Whose quotas a thread's calls count against. */
export interface SpendOwner {
  tenant: string;
  subject: string;
}

/** The spend port of a thread, or undefined when nothing is limited (no TENANTS binding). */
export function threadSpend(env: RuntimeEnv, owner: () => SpendOwner): SpendPort | undefined {
  if (!env.TENANTS) return undefined;
  const stubOf = () => {
    const { tenant, subject } = owner();
    return { stub: tenantStub(env, tenant), key: ownerKey(subject) };
  };
  return {
    async beforeModelCall(estimate: SpendEstimate) {
      const { stub, key } = stubOf();
      if (!stub) return { ok: true, hold: '' };
      const decision = await stub.holdSpend(key, estimate);
      return decision.ok ? decision : { ok: false, message: decision.message };
    },
    async afterModelCall(hold: string, spent: SpendEstimate | null) {
      const { stub, key } = stubOf();
      await stub?.settleSpend(hold, key, spent);
    },
  };
}
