/**
 * Whether a principal may go on (IDN-5): a request at all, a new thread, a turn slot for a thread.
 * Each is one RPC to the tenant's object, which counts exactly; a request skips it when this
 * isolate's recent copy of the limits (limits-cache.ts) says no limit of that kind applies.
 */
import type { Principal } from '../access/index.js';
import type { Admission, RuntimeEnv, TenantLimits } from '../bindings/index.js';
import type { LimitField } from './limit-config.js';
import { cachedLimits, rememberLimits, tenantStub } from './limits-cache.js';

/** Whose count a principal's requests go to: its issued key's when it has one, else its subject's. */
export function principalKey(principal: Pick<Principal, 'subject' | 'keyId'>): string {
  return principal.keyId ? `key:${principal.keyId}` : `sub:${principal.subject}`;
}

/** Whose count a thread's spend goes to: its owner's. */
export function ownerKey(subject: string): string {
  return `sub:${subject}`;
}

const ADMITTED: Admission = { ok: true };

/** Whether this isolate knows, recently, that neither scope limits `field`. */
export function knownUnlimited(tenant: string, field: LimitField): boolean {
  const limits: TenantLimits | undefined = cachedLimits(tenant);
  return limits !== undefined && limits.tenant[field] == null && limits.principal[field] == null;
}

function withoutLimits<T extends { limits: TenantLimits }>(answer: T): Omit<T, 'limits'> {
  const { limits: _limits, ...rest } = answer;
  return rest;
}

async function admit(env: RuntimeEnv, principal: Principal, kind: 'request' | 'thread'): Promise<Admission> {
  const stub = tenantStub(env, principal.tenant);
  if (!stub || knownUnlimited(principal.tenant, kind === 'request' ? 'requestsPerMinute' : 'threadsPerHour')) {
    return ADMITTED;
  }
  const answer = await stub.admit(kind, principalKey(principal));
  rememberLimits(principal.tenant, answer.limits);
  return withoutLimits(answer) as Admission;
}

/** Whether a signed-in request may go on: `rate_limited` past the requests-per-minute limit. */
export function admitRequest(env: RuntimeEnv, principal: Principal): Promise<Admission> {
  return admit(env, principal, 'request');
}

/** Whether the principal may start a thread: `rate_limited` past the threads-per-hour limit. */
export function admitThreadCreation(env: RuntimeEnv, principal: Principal): Promise<Admission> {
  return admit(env, principal, 'thread');
}

/**
 * A turn slot for `threadId`, taken before a message is posted or a thread started: `rate_limited`
 * when the tenant's or the principal's running turns are at their limit. `fresh` says the slot was
 * taken now, so a request that fails afterwards gives it back (releaseTurnSlot).
 */
export async function acquireTurnSlot(
  env: RuntimeEnv,
  principal: Principal,
  threadId: string,
): Promise<Admission & { fresh?: boolean }> {
  const stub = tenantStub(env, principal.tenant);
  if (!stub || knownUnlimited(principal.tenant, 'concurrentTurns')) return ADMITTED;
  const answer = await stub.acquireTurn(threadId, principalKey(principal));
  rememberLimits(principal.tenant, answer.limits);
  return withoutLimits(answer) as Admission & { fresh?: boolean };
}

/** Gives a thread's turn slot back (a turn ended, or the request that took it failed). */
export async function releaseTurnSlot(env: RuntimeEnv, tenant: string, threadId: string): Promise<void> {
  await tenantStub(env, tenant)?.releaseTurn(threadId);
}
