/**
 * Whether D1 refused a write to the thread index for good, or only for now (THR-1).
 *
 * D1 reports a statement's own failure with SQLite's words and result code in its message
 * ("UNIQUE constraint failed: threads.id: SQLITE_CONSTRAINT", "no such column: ...", "datatype
 * mismatch", D1_TYPE_ERROR for a value it cannot bind). Such an answer depends only on the
 * statement and the database's schema: sending the same row again gets the same answer until
 * someone changes one of them, so the thread stops trying, is marked, and the refusal is reported.
 * Everything else (a lost connection, an overloaded or reset database, a timeout, an error this
 * list does not know) says nothing about the row and is tried again with backoff: a write that
 * might be accepted is never given up for an unfamiliar message.
 */

/** The meta key holding why D1 refused the thread's row for good (`index_error` of its details). */
export const INDEX_ERROR_KEY = 'index_error';

const REFUSED_FOR_GOOD = [
  /SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/i,
  /constraint failed/i,
  /no such (table|column)/i,
  /has no column named/i,
  /datatype mismatch/i,
  /syntax error/i,
  /too many SQL variables/i,
  /D1_TYPE_ERROR/,
  /D1_COLUMN_NOTFOUND/,
];

export function refusedForGood(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return REFUSED_FOR_GOOD.some((pattern) => pattern.test(message));
}

/** Waiting time before try `attempts + 1`: 1 s, doubling, at most 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}
