/**
 * What models cost, by who spent it: usage and cost summed by user, agent, model, UTC day or tenant
 * over a range of days. An admin reads its tenant's usage; any other key only its own.
 */
import { expectOk, type TypedApi } from './http.js';
import type { UsageDimension, UsageReport } from './resources.js';

export interface UsageQuery {
  /** The dimensions to group by, in order (`tenant`: the bootstrap admin key only); none: one row of totals. */
  groupBy?: readonly UsageDimension[];
  /** The first day, `YYYY-MM-DD` (UTC, inclusive); default 29 days before `to`. */
  from?: string;
  /** The last day, `YYYY-MM-DD` (UTC, inclusive); default today. At most 366 days from `from`. */
  to?: string;
  /** The bootstrap admin key only: one tenant instead of every tenant. */
  tenant?: string;
}

export interface UsageCalls {
  /** `GET /api/usage`: one row per value of the dimensions, dearest first, and their totals. */
  get(query?: UsageQuery): Promise<UsageReport>;
}

export function usageCalls(api: TypedApi): UsageCalls {
  return {
    get: ({ groupBy, from, to, tenant } = {}) =>
      expectOk(
        api.GET('/api/usage', {
          params: { query: { group_by: groupBy === undefined ? undefined : groupBy.join(','), from, to, tenant } },
        }),
      ),
  };
}
