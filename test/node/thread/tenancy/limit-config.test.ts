/**
 * A tenant's limits as configured (IDN-5, IDN-6): `TENANT_LIMITS` read once and refused, naming the
 * variable, when it is not what it should be; a tenant's override laid over the defaults field by
 * field, `null` meaning unlimited. Imported from the file itself: the room's door also exports the
 * Durable Object class, which only workerd can load.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultLimits,
  effectiveLimits,
  limitOf,
  limitsProblem,
  NO_LIMITS,
} from '../../../../src/thread/tenancy/limit-config.js';
import { HOSTILE_LIMIT_SETTINGS } from '../../../support/hostile-corpus.js';

describe('TENANT_LIMITS', () => {
  it('unset or blank: nothing is limited', () => {
    expect(defaultLimits(undefined)).toEqual(NO_LIMITS);
    expect(defaultLimits('  ')).toEqual(NO_LIMITS);
  });

  it('both scopes, each with its own fields', () => {
    const limits = defaultLimits(
      '{"tenant":{"requestsPerMinute":600,"costPerDay":12.5},"principal":{"threadsPerHour":3}}',
    );
    expect(limits).toEqual({ tenant: { requestsPerMinute: 600, costPerDay: 12.5 }, principal: { threadsPerHour: 3 } });
    expect(defaultLimits('{"principal":{"concurrentTurns":2}}')).toEqual({
      tenant: {},
      principal: { concurrentTurns: 2 },
    });
  });

  it('a setting that is not JSON, or not limits, is refused with a message naming it and what is wrong', () => {
    expect(() => defaultLimits('{tenant: 5}')).toThrow(/TENANT_LIMITS is not JSON/);
    expect(() => defaultLimits('{"tenant":{"requestsPerMinut":5}}')).toThrow(
      /TENANT_LIMITS.tenant has no limit "requestsPerMinut"/,
    );
    expect(() => defaultLimits('{"tenant":{"requestsPerMinute":null}}')).toThrow(/whole number/);
    expect(() => defaultLimits('[]')).toThrow(/JSON object/);
  });

  it('every hostile setting of the corpus is refused', () => {
    for (const settings of HOSTILE_LIMIT_SETTINGS) {
      expect(limitsProblem(settings, 'limits', true), JSON.stringify(settings)).not.toBeNull();
    }
  });
});

describe('the limits that apply', () => {
  const defaults = defaultLimits(
    '{"tenant":{"requestsPerMinute":600,"tokensPerDay":1000000},"principal":{"requestsPerMinute":60}}',
  );

  it('without an override: the defaults', () => {
    expect(effectiveLimits(defaults, null)).toEqual(defaults);
  });

  it("an override's fields replace the defaults' one by one; null is unlimited", () => {
    const effective = effectiveLimits(defaults, {
      tenant: { tokensPerDay: 5000 },
      principal: { requestsPerMinute: null, concurrentTurns: 1 },
    });
    expect(limitOf(effective.tenant, 'requestsPerMinute')).toBe(600);
    expect(limitOf(effective.tenant, 'tokensPerDay')).toBe(5000);
    expect(limitOf(effective.principal, 'requestsPerMinute')).toBeUndefined();
    expect(limitOf(effective.principal, 'concurrentTurns')).toBe(1);
  });
});
