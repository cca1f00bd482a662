/**
 * THR-11: which D1 answers stop a thread's index writes for good (the statement's own failure, as
 * SQLite words it) and which are tried again (anything about the connection, the database's load or
 * state, or a message the runtime does not know), and the backoff between tries.
 */
import { describe, expect, it } from 'vitest';
import { refusedForGood, retryDelayMs } from '../../../src/thread/object/index-refusal.js';

const FOR_GOOD = [
  'D1_ERROR: UNIQUE constraint failed: threads.id: SQLITE_CONSTRAINT',
  'D1_ERROR: NOT NULL constraint failed: threads.agent: SQLITE_CONSTRAINT',
  'D1_ERROR: no such column: person_waits: SQLITE_ERROR',
  'D1_ERROR: table threads has no column named forked_from: SQLITE_ERROR',
  'D1_ERROR: datatype mismatch: SQLITE_MISMATCH',
  "D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'",
  'D1_ERROR: string or blob too big: SQLITE_TOOBIG',
];

const FOR_NOW = [
  'D1_ERROR: Network connection lost.',
  'D1 DB is overloaded. Requests queued for too long.',
  'D1_ERROR: Internal error in D1 DB storage caused object to be reset.',
  'D1 DB reset because its code was updated.',
  'D1_ERROR: database is locked: SQLITE_BUSY',
  'D1_ERROR: Exceeded maximum DB size',
  'The operation was aborted due to timeout',
  'something no one has seen before',
  '',
];

describe('index refusals', () => {
  it.each(FOR_GOOD)('THR-11: refused for good: %s', (message) => {
    expect(refusedForGood(new Error(message))).toBe(true);
  });

  it.each(FOR_NOW)('THR-10: tried again: %s', (message) => {
    expect(refusedForGood(new Error(message))).toBe(false);
  });

  it('THR-10: waits 1 s, then twice as long each time, never more than 10 minutes', () => {
    expect([1, 2, 3, 4, 10, 11, 50, 10_000].map(retryDelayMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 512_000, 600_000, 600_000, 600_000,
    ]);
  });
});
