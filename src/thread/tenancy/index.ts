/**
 * Tenants' limits and quotas (IDN-5, IDN-6): the Tenant Durable Object that counts them exactly, the
 * admission the Worker asks for before a request, a thread start or a turn, a thread's turn slot and
 * its spend port, and the limits' configuration. Without a TENANTS binding nothing here limits anything.
 */
export {
  acquireTurnSlot,
  admitRequest,
  admitThreadCreation,
  ownerKey,
  principalKey,
  releaseTurnSlot,
} from './admission.js';
export { currentKeyState, keyLapse } from './current-key-state.js';
export { keyChanged } from './key-changes.js';
export { LIMIT_FIELDS, type LimitField, limitsProblem, normalLimits } from './limit-config.js';
export { CONFIG_TTL_MS, forgetLimits, tenantStub } from './limits-cache.js';
export { TURN_LEASE_MS } from './tenant-counters.js';
export { Tenant } from './tenant-object.js';
export { type SpendOwner, threadSpend } from './thread-spend.js';
export { type LeaseHolder, leaseHolder, TurnLease } from './turn-lease.js';
