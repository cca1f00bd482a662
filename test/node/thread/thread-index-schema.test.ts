/**
 * THR-1: the D1 thread index brings an older database up to date at first use: its `threads` table,
 * created before `person_waits` existed, gets the column (which `?status=waiting` reads); a current
 * one, whose ALTER answers "duplicate column", is left as it is; any other failure is not swallowed,
 * and the next use tries again. Over a stand-in D1 that answers as D1 does.
 */
import { describe, expect, it } from 'vitest';
import { ThreadIndex } from '../../../src/thread/bindings/index.js';

/** A D1 stand-in: records every statement; `alter` decides what the ALTER TABLE answers. */
function fakeD1(alter: () => Promise<unknown>) {
  const statements: string[] = [];
  const statement = (sql: string) => {
    const run = () => {
      statements.push(sql);
      return sql.startsWith('ALTER') ? alter() : Promise.resolve({ results: [] });
    };
    const prepared = { bind: () => prepared, run, all: run };
    return prepared;
  };
  const db = {
    prepare: statement,
    batch: async (list: { run: () => Promise<unknown> }[]) => {
      for (const each of list) await each.run();
      return [];
    },
  } as unknown as D1Database;
  return { db, statements };
}

const adds = (statements: string[]) => statements.filter((sql) => sql.startsWith('ALTER TABLE threads ADD COLUMN'));

describe('the thread index schema', () => {
  it('THR-1: an older database gets person_waits, once per isolate, before the first write', async () => {
    const { db, statements } = fakeD1(async () => ({ success: true }));
    const index = new ThreadIndex(db);
    await index.setStatus('t1', 'waiting', 'general', true);
    await index.setStatus('t1', 'idle', 'general');
    expect(adds(statements)).toEqual(['ALTER TABLE threads ADD COLUMN person_waits INTEGER NOT NULL DEFAULT 0']);
    const alter = statements.findIndex((sql) => sql.startsWith('ALTER'));
    const update = statements.findIndex((sql) => sql.startsWith('UPDATE threads SET'));
    expect(alter).toBeLessThan(update);
  });

  it('THR-1: a current database answers "duplicate column" and is used as it is', async () => {
    const { db, statements } = fakeD1(() =>
      Promise.reject(new Error('D1_ERROR: duplicate column name: person_waits: SQLITE_ERROR')),
    );
    await new ThreadIndex(db).setStatus('t1', 'waiting', 'general', true);
    expect(statements.some((sql) => sql.startsWith('UPDATE threads SET'))).toBe(true);
  });

  it('THR-1: any other failure of the ALTER fails the call, and the next call tries again', async () => {
    let failures = 1;
    const { db, statements } = fakeD1(() =>
      failures-- > 0 ? Promise.reject(new Error('D1_ERROR: database is locked')) : Promise.resolve({}),
    );
    const index = new ThreadIndex(db);
    await expect(index.setStatus('t1', 'idle', 'general')).rejects.toThrow('database is locked');
    expect(statements.some((sql) => sql.startsWith('UPDATE'))).toBe(false);
    await index.setStatus('t1', 'idle', 'general');
    expect(adds(statements)).toHaveLength(2);
    expect(statements.some((sql) => sql.startsWith('UPDATE'))).toBe(true);
  });
});
