/**
 * What a tenant's limits count, decided over its object's rows (IDN-5, IDN-6). Every method runs
 * inside one RPC of the Tenant object without awaiting anything, so concurrent requests are decided
 * one after the other and each count is exact:
 *
 * - requests and thread starts: a sliding-window log. A request is admitted when fewer than the limit
 *   were admitted in the last 60 seconds (thread starts: 60 minutes); exactly the limit's count gets
 *   through in any window, and a refusal says when the oldest leaves it. Requests are logged in memory
 *   (request-window.ts says why that loses nothing), thread starts in SQLite.
 * - turn slots: a lease per thread, taken when a turn starts, given back when it ends, renewed while
 *   it runs, and expiring on its own if the thread never gives it back.
 * - spend: each model call holds its estimate against the UTC day's quota before it starts (so calls
 *   under way at once cannot pass it together), and is settled with what it really spent.
 */
import type { Admission, LimitSet, Spend, SpendDecision, TenantLimits } from '../bindings/index.js';
import type { TenantRows } from '../storage/index.js';
import { type LimitField, limitOf } from './limit-config.js';
import { MemoryEventLog } from './request-window.js';

/** How long a turn slot lasts unless renewed: a thread that dies gives its slot back after this. */
export const TURN_LEASE_MS = 5 * 60_000;
/** How long a model call's hold lasts: a call that never settles stops counting after this. */
const SPEND_HOLD_MS = 10 * 60_000;
/** What a refusal for a full set of turn slots tells the client: a slot frees when a turn ends. */
const TURN_RETRY_SECONDS = 5;
/** The key of the whole tenant's spend rows. */
const TENANT_KEY = '*';

const WINDOWS = {
  request: { field: 'requestsPerMinute', ms: 60_000, what: 'requests per minute' },
  thread: { field: 'threadsPerHour', ms: 3_600_000, what: 'threads started per hour' },
} as const satisfies Record<string, { field: LimitField; ms: number; what: string }>;

/** The UTC day of `now`, `YYYY-MM-DD`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

type Scope = 'tenant' | 'principal';

const WHOSE: Record<Scope, string> = { tenant: "The tenant's", principal: 'Your' };

function refusal(message: string, retryAfterSeconds: number): Admission {
  return { ok: false, code: 'rate_limited', message, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) };
}

export class TenantCounters {
  /** Requests per minute, counted in memory (request-window.ts); thread starts stay in SQLite. */
  private readonly requests = new MemoryEventLog();

  constructor(private readonly rows: TenantRows) {}

  /** Counts a request or a thread start of `key` if both its windows have room. */
  admit(kind: keyof typeof WINDOWS, key: string, limits: TenantLimits, now: number): Admission {
    const window = WINDOWS[kind];
    const tenantLimit = limitOf(limits.tenant, window.field);
    const principalLimit = limitOf(limits.principal, window.field);
    if (tenantLimit === undefined && principalLimit === undefined) return { ok: true };
    const log = kind === 'request' ? this.requests : this.rows;
    log.dropEvents(kind, now - window.ms);
    const checks: [Scope, number | undefined, string | undefined][] = [
      ['tenant', tenantLimit, undefined],
      ['principal', principalLimit, key],
    ];
    for (const [scope, limit, countKey] of checks) {
      if (limit === undefined) continue;
      const { count, oldest } = log.events(kind, countKey);
      if (count < limit) continue;
      const wait = oldest === null ? window.ms : oldest + window.ms - now;
      return refusal(
        `${WHOSE[scope]} limit of ${limit} ${window.what} is reached; try again in ${Math.ceil(wait / 1000)} s.`,
        wait / 1000,
      );
    }
    log.addEvent(kind, key, now);
    return { ok: true };
  }

  /** A turn slot for `thread`; `fresh` when it was not held already (only then may a failure give it back). */
  acquireTurn(thread: string, key: string, limits: TenantLimits, now: number): Admission & { fresh?: boolean } {
    this.rows.dropExpiredLeases(now);
    if (this.rows.holdsLease(thread)) {
      this.rows.putLease(thread, key, now + TURN_LEASE_MS);
      return { ok: true, fresh: false };
    }
    const tenantLimit = limitOf(limits.tenant, 'concurrentTurns');
    const principalLimit = limitOf(limits.principal, 'concurrentTurns');
    if (tenantLimit === undefined && principalLimit === undefined) return { ok: true, fresh: false };
    const checks: [Scope, number | undefined, string | undefined][] = [
      ['tenant', tenantLimit, undefined],
      ['principal', principalLimit, key],
    ];
    for (const [scope, limit, countKey] of checks) {
      if (limit === undefined || this.rows.leases(countKey).count < limit) continue;
      return refusal(
        `${WHOSE[scope]} limit of ${limit} running turns at once is reached; a slot frees when one of them ends.`,
        TURN_RETRY_SECONDS,
      );
    }
    this.rows.putLease(thread, key, now + TURN_LEASE_MS);
    return { ok: true, fresh: true };
  }

  renewTurn(thread: string, now: number): void {
    this.rows.extendLease(thread, now + TURN_LEASE_MS);
  }

  releaseTurn(thread: string): void {
    this.rows.dropLease(thread);
  }

  /** Holds a model call's estimate against the day's quotas of the tenant and of `key`, or refuses. */
  holdSpend(key: string, estimate: Spend, limits: TenantLimits, now: number): SpendDecision {
    const day = utcDay(now);
    this.rows.dropStaleSpend(day, now);
    const checks: [Scope, LimitSet, string][] = [
      ['tenant', limits.tenant, TENANT_KEY],
      ['principal', limits.principal, key],
    ];
    for (const [scope, set, spendKey] of checks) {
      const problem = quotaProblem(scope, set, this.rows.spent(day, spendKey), estimate);
      if (problem) return { ok: false, code: 'quota_exceeded', message: problem };
    }
    const hold = crypto.randomUUID();
    for (const spendKey of [TENANT_KEY, key]) this.rows.putHold(hold, day, spendKey, estimate, now + SPEND_HOLD_MS);
    return { ok: true, hold };
  }

  /** Replaces a hold by what the call spent, counted on the day it ended. */
  settleSpend(hold: string, key: string, spent: Spend | null, now: number): void {
    this.rows.dropHold(hold);
    if (!spent) return;
    const day = utcDay(now);
    for (const spendKey of [TENANT_KEY, key]) this.rows.addSpend(day, spendKey, spent);
  }
}

/** Why a call estimated at `estimate` may not start against `set`'s daily quotas, or null. */
function quotaProblem(scope: Scope, set: LimitSet, used: Spend, estimate: Spend): string | null {
  const tokens = limitOf(set, 'tokensPerDay');
  const cost = limitOf(set, 'costPerDay');
  const whose = `${WHOSE[scope]} daily quota`;
  if (tokens !== undefined && (used.tokens >= tokens || used.tokens + estimate.tokens > tokens)) {
    return `${whose} of ${tokens} model tokens is used up (${used.tokens} used today, UTC; this call needs about ${estimate.tokens} more); no further model call is made today.`;
  }
  if (cost !== undefined && (used.cost >= cost || used.cost + estimate.cost > cost)) {
    return `${whose} of $${cost} of model cost is used up ($${used.cost.toFixed(4)} spent today, UTC; this call needs about $${estimate.cost.toFixed(4)} more); no further model call is made today.`;
  }
  return null;
}
