/**
 * A tenant's limits as configured (IDN-5, IDN-6): the Worker's defaults from `TENANT_LIMITS`, a
 * tenant's own override set through the API, and the limits that apply — each field of the override,
 * when present, replacing the default's (`null`: unlimited).
 */
import type { LimitSet, TenantLimits } from '../bindings/index.js';

/** The five limits, and whether each counts whole things (every one but cost does). */
export const LIMIT_FIELDS = {
  requestsPerMinute: 'integer',
  threadsPerHour: 'integer',
  concurrentTurns: 'integer',
  tokensPerDay: 'integer',
  costPerDay: 'number',
} as const satisfies Record<keyof LimitSet, 'integer' | 'number'>;

export type LimitField = keyof typeof LIMIT_FIELDS;

export const NO_LIMITS: TenantLimits = { tenant: {}, principal: {} };

/** What is wrong with `value` as a scope's limits, or null (`allowNull`: an override may say unlimited). */
function limitSetProblem(value: unknown, where: string, allowNull: boolean): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} must be an object`;
  for (const [field, limit] of Object.entries(value)) {
    const kind = LIMIT_FIELDS[field as LimitField];
    if (!Object.hasOwn(LIMIT_FIELDS, field) || kind === undefined) {
      return `${where} has no limit "${field}" (known: ${Object.keys(LIMIT_FIELDS).join(', ')})`;
    }
    if (limit === null && allowNull) continue;
    const valid = typeof limit === 'number' && Number.isFinite(limit) && limit >= 0;
    if (!valid || (kind === 'integer' && !Number.isInteger(limit))) {
      return `${where}.${field} must be a ${kind === 'integer' ? 'whole number' : 'number'} of 0 or more`;
    }
  }
  return null;
}

/** What is wrong with `value` as limits (`{ tenant?, principal? }`), or null. */
export function limitsProblem(value: unknown, where: string, allowNull: boolean): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} must be a JSON object`;
  for (const [scope, set] of Object.entries(value)) {
    if (scope !== 'tenant' && scope !== 'principal') return `${where} has no scope "${scope}" (tenant, principal)`;
    const problem = limitSetProblem(set, `${where}.${scope}`, allowNull);
    if (problem) return problem;
  }
  return null;
}

/** Limits with both scopes present and only their own fields. */
export function normalLimits(value: { tenant?: LimitSet; principal?: LimitSet }): TenantLimits {
  return { tenant: { ...value.tenant }, principal: { ...value.principal } };
}

let parsedDefaults: { source: string; limits: TenantLimits } | null = null;

/** The defaults of `TENANT_LIMITS`; throws, naming the variable, when it is not valid. */
export function defaultLimits(source: string | undefined): TenantLimits {
  const text = source?.trim() ?? '';
  if (text === '') return NO_LIMITS;
  if (parsedDefaults?.source === text) return parsedDefaults.limits;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('TENANT_LIMITS is not JSON: expected {"tenant": {...}, "principal": {...}}');
  }
  const problem = limitsProblem(value, 'TENANT_LIMITS', false);
  if (problem) throw new Error(problem);
  const limits = normalLimits(value as TenantLimits);
  parsedDefaults = { source: text, limits };
  return limits;
}

/** The limits that apply: each field of the override that is present replaces the default's. */
export function effectiveLimits(defaults: TenantLimits, override: TenantLimits | null): TenantLimits {
  if (!override) return defaults;
  return {
    tenant: { ...defaults.tenant, ...override.tenant },
    principal: { ...defaults.principal, ...override.principal },
  };
}

/** A limit's value, undefined when unlimited. */
export function limitOf(set: LimitSet, field: LimitField): number | undefined {
  return set[field] ?? undefined;
}
