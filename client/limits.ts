/**
 * Rate limits and spend quotas, for admins: the Worker's defaults, the tenant's override and what
 * applies, and replacing the override.
 */
import { expectOk, type TypedApi } from './http.js';
import type { LimitsQuery, LimitsView, TenantLimits } from './resources.js';

export interface LimitCalls {
  /** `GET /api/limits`: `defaults`, `override` and `effective` (a limit left out is unlimited). */
  get(query?: LimitsQuery): Promise<LimitsView>;
  /**
   * `PUT /api/limits`: replaces the tenant's override (a field set to null: unlimited). Other Worker
   * instances may take `propagation_seconds` to start counting requests against a new limit.
   */
  set(limits: TenantLimits, query?: LimitsQuery): Promise<LimitsView>;
}

export function limitCalls(api: TypedApi): LimitCalls {
  return {
    get: (query) => expectOk(api.GET('/api/limits', { params: { query } })),
    set: (limits, query) => expectOk(api.PUT('/api/limits', { params: { query }, body: limits })),
  };
}
