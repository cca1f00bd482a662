/**
 * Each Worker isolate's copy of tenants' limits, kept a few seconds (IDN-5): it lets a request skip
 * the RPC to its tenant's object when no limit of that kind applies. Counts are always the object's,
 * exact; a change of limits reaches other isolates within CONFIG_TTL_MS (the isolate that made the
 * change forgets its copy at once).
 */
import type { RuntimeEnv, TenantLimits } from '../bindings/index.js';

/** How long an isolate trusts its copy of a tenant's limits. */
export const CONFIG_TTL_MS = 5_000;
/** Copies kept at most: a flood of tenants empties the cache rather than growing it. */
const MAX_TENANTS = 1_000;

const copies = new Map<string, { at: number; limits: TenantLimits }>();

/** The tenant's limits as this isolate last heard them, if recent. */
export function cachedLimits(tenant: string, now = Date.now()): TenantLimits | undefined {
  const copy = copies.get(tenant);
  return copy && now - copy.at < CONFIG_TTL_MS ? copy.limits : undefined;
}

export function rememberLimits(tenant: string, limits: TenantLimits, now = Date.now()): void {
  if (copies.size >= MAX_TENANTS && !copies.has(tenant)) copies.clear();
  copies.set(tenant, { at: now, limits });
}

export function forgetLimits(tenant: string): void {
  copies.delete(tenant);
}

/** The tenant's object, or null when the Worker has no TENANTS binding (nothing is limited). */
export function tenantStub(env: RuntimeEnv, tenant: string) {
  return env.TENANTS ? env.TENANTS.get(env.TENANTS.idFromName(tenant)) : null;
}
