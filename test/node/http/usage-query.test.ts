/**
 * The query of `GET /api/usage` (USE-1, USE-4, USE-5), read without a Worker: the default range, one
 * end given, leap days, the 366-day limit, group_by's names, and whose steps each principal sums.
 */
import { describe, expect, it } from 'vitest';
import { groupByOf, rangeOf, usageQueryOf } from '../../../src/http/admin/usage-query.js';
import { HttpError } from '../../../src/http/contract/index.js';
import type { Principal } from '../../../src/thread/access/index.js';

const NOW = Date.parse('2028-03-01T12:34:56Z');

function refusal(run: () => unknown): { code: string; message: string; status: number } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return error.apiError;
  }
}

const principal = (role: Principal['role'], via: Principal['via'] = 'api_keys'): Principal => ({
  tenant: 'acme',
  subject: 'u1',
  role,
  via,
});

describe('the range of days', () => {
  it('defaults to today and the 29 days before, across a leap day', () => {
    expect(rangeOf(undefined, undefined, NOW)).toEqual({ from: '2028-02-01', to: '2028-03-01' });
  });

  it('one end given: the other follows from it', () => {
    expect(rangeOf(undefined, '2028-02-29', NOW)).toEqual({ from: '2028-01-31', to: '2028-02-29' });
    expect(rangeOf('2028-02-20', undefined, NOW)).toEqual({ from: '2028-02-20', to: '2028-03-01' });
    expect(rangeOf('2028-05-01', undefined, NOW)).toEqual({ from: '2028-05-01', to: '2028-05-01' });
  });

  it('366 days inclusive is the most; 367 is refused naming the range', () => {
    expect(rangeOf('2027-03-02', '2028-03-01', NOW)).toEqual({ from: '2027-03-02', to: '2028-03-01' });
    expect(refusal(() => rangeOf('2027-03-01', '2028-03-01', NOW))).toMatchObject({
      status: 400,
      code: 'invalid_usage_query',
      message: expect.stringContaining('366 days'),
    });
  });

  it('a day that does not exist is refused naming its field', () => {
    expect(refusal(() => rangeOf('2027-02-29', undefined, NOW))?.message).toContain('from');
    expect(refusal(() => rangeOf(undefined, '2028-04-31', NOW))?.message).toContain('to');
    expect(rangeOf('2028-02-29', '2028-02-29', NOW)).toEqual({ from: '2028-02-29', to: '2028-02-29' });
  });
});

describe('group_by and scope', () => {
  it('keeps the order given, ignores spaces around names, and refuses tenant without the bootstrap key', () => {
    expect(groupByOf(' model , user ', false)).toEqual(['model', 'user']);
    expect(groupByOf('', false)).toEqual([]);
    expect(groupByOf('tenant,day', true)).toEqual(['tenant', 'day']);
    expect(refusal(() => groupByOf('tenant', false))?.message).toContain('group_by');
  });

  it('an admin sums its tenant, anyone else itself, the bootstrap key every tenant or the one it names', () => {
    expect(usageQueryOf(principal('admin'), {}, NOW).scope).toEqual({ tenant: 'acme', user: null });
    expect(usageQueryOf(principal('member'), {}, NOW).scope).toEqual({ tenant: 'acme', user: 'u1' });
    expect(usageQueryOf(principal('viewer'), { tenant: 'acme' }, NOW).scope).toEqual({ tenant: 'acme', user: 'u1' });
    expect(usageQueryOf(principal('admin', 'admin_key'), {}, NOW).scope).toEqual({ tenant: null, user: null });
    expect(usageQueryOf(principal('admin', 'admin_key'), { tenant: 'globex' }, NOW).scope).toEqual({
      tenant: 'globex',
      user: null,
    });
    expect(refusal(() => usageQueryOf(principal('admin'), { tenant: 'globex' }, NOW))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });
});
