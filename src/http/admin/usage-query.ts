/**
 * What `GET /api/usage` asks, read from its query (USE-1, USE-4, USE-5): the dimensions to group by,
 * the inclusive range of UTC days (the last 30 by default, at most 366), and whose steps the caller
 * may sum. Anything else is refused with 400 `invalid_usage_query` and a message naming the field;
 * the schema leaves the fields as strings so that every refusal is this one.
 */
import type { Principal } from '../../thread/access/index.js';
import { USAGE_DIMENSIONS, type UsageDimension, type UsageQuery } from '../../thread/bindings/index.js';
import { HttpError } from '../contract/index.js';

const DAY_MS = 86_400_000;
/** The longest range, in days counted inclusively. */
export const MAX_USAGE_DAYS = 366;
/** The range when neither end is given: today and the 29 days before it. */
export const DEFAULT_USAGE_DAYS = 30;

export interface UsageQueryInput {
  group_by?: string;
  from?: string;
  to?: string;
  tenant?: string;
}

function refuse(message: string): never {
  throw new HttpError({ status: 400, code: 'invalid_usage_query', message });
}

/** Milliseconds of a `YYYY-MM-DD` that names a real day, or a refusal naming `field`. */
function dayOf(field: string, value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    refuse(`${field} must be a UTC date written YYYY-MM-DD`);
  }
  return ms;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The dimensions, in the order given; may group by `tenant` only whoever may see every tenant. */
export function groupByOf(value: string | undefined, allTenants: boolean): UsageDimension[] {
  if (value === undefined || value.trim() === '') return [];
  const dimensions: UsageDimension[] = [];
  for (const part of value.split(',').map((item) => item.trim())) {
    if (!(USAGE_DIMENSIONS as readonly string[]).includes(part)) {
      refuse(`group_by may name only ${USAGE_DIMENSIONS.join(', ')}, separated by commas`);
    }
    const dimension = part as UsageDimension;
    if (dimensions.includes(dimension)) refuse(`group_by names ${dimension} twice`);
    if (dimension === 'tenant' && !allTenants) refuse('group_by may name tenant only with the bootstrap admin key');
    dimensions.push(dimension);
  }
  return dimensions;
}

/** The inclusive range of days: either end defaults from the other, or from today. */
export function rangeOf(from: string | undefined, to: string | undefined, now: number): { from: string; to: string } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const toMs = to === undefined ? null : dayOf('to', to);
  const fromMs = from === undefined ? null : dayOf('from', from);
  const end = toMs ?? (fromMs === null ? today : Math.max(today, fromMs));
  const start = fromMs ?? end - (DEFAULT_USAGE_DAYS - 1) * DAY_MS;
  if (start > end) refuse('from must not be after to');
  if ((end - start) / DAY_MS + 1 > MAX_USAGE_DAYS) refuse(`from and to may span at most ${MAX_USAGE_DAYS} days`);
  return { from: isoDay(start), to: isoDay(end) };
}

/**
 * Whose steps the caller sums (USE-4): the bootstrap admin key every tenant's (or the one `tenant`
 * names), an admin its tenant's, everyone else only its own.
 */
export function usageQueryOf(principal: Principal, input: UsageQueryInput, now = Date.now()): UsageQuery {
  const allTenants = principal.via === 'admin_key';
  if (input.tenant !== undefined && !allTenants && input.tenant !== principal.tenant) {
    throw new HttpError({
      status: 403,
      code: 'forbidden',
      message: 'only the bootstrap admin key may read another tenant',
    });
  }
  const groupBy = groupByOf(input.group_by, allTenants);
  const range = rangeOf(input.from, input.to, now);
  const tenant = allTenants ? (input.tenant ?? null) : principal.tenant;
  const user = principal.role === 'admin' ? null : principal.subject;
  return { scope: { tenant, user }, groupBy, ...range };
}
