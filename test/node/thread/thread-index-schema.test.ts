/**
 * THR-1, IDN-1: the D1 thread index brings an older database up to date at first use: its `threads`
 * table, created before `person_waits`, `tenant`, `shared` and `forked_from` (FORK-2) existed, gets the columns it lacks (read
 * from `pragma_table_info` first, so a current database runs no ALTER at all); an ALTER that answers
 * "duplicate column" (another isolate was quicker) is fine; any other failure is not swallowed, and the
 * next use tries again. Over a stand-in D1 that answers as D1 does.
 */
import { describe, expect, it } from 'vitest';
import { ThreadIndex } from '../../../src/thread/bindings/index.js';

const OLD_COLUMNS = ['id', 'agent', 'user_id', 'parent_id', 'status', 'tags', 'created_at', 'updated_at'];
const ADDED = ['person_waits', 'tenant', 'shared', 'forked_from'];

/**
 * A D1 stand-in: records every statement; `alter` decides what the ALTER TABLE answers, `columns`
 * what the table's columns are.
 */
function fakeD1(alter: () => Promise<unknown>, columns: string[] = OLD_COLUMNS) {
  const statements: string[] = [];
  const statement = (sql: string) => {
    const run = () => {
      statements.push(sql);
      if (sql.includes('pragma_table_info')) return Promise.resolve({ results: columns.map((name) => ({ name })) });
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
  it('THR-1, IDN-1: an older database gets the columns it lacks, once per isolate, before the first write', async () => {
    const { db, statements } = fakeD1(async () => ({ success: true }));
    const index = new ThreadIndex(db);
    await index.setStatus('t1', 'waiting', 'general', true);
    await index.setStatus('t1', 'idle', 'general');
    expect(adds(statements)).toEqual([
      'ALTER TABLE threads ADD COLUMN person_waits INTEGER NOT NULL DEFAULT 0',
      "ALTER TABLE threads ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'",
      'ALTER TABLE threads ADD COLUMN shared INTEGER NOT NULL DEFAULT 0',
      'ALTER TABLE threads ADD COLUMN forked_from TEXT',
    ]);
    const alter = statements.findIndex((sql) => sql.startsWith('ALTER'));
    const update = statements.findIndex((sql) => sql.startsWith('UPDATE threads SET'));
    expect(alter).toBeLessThan(update);
  });

  it('THR-1: a current database runs no ALTER, and one another isolate just altered is used as it is', async () => {
    const current = fakeD1(() => Promise.reject(new Error('no ALTER expected')), [...OLD_COLUMNS, ...ADDED]);
    await new ThreadIndex(current.db).setStatus('t1', 'waiting', 'general', true);
    expect(adds(current.statements)).toEqual([]);
    expect(current.statements.some((sql) => sql.startsWith('UPDATE threads SET'))).toBe(true);
    const raced = fakeD1(() => Promise.reject(new Error('D1_ERROR: duplicate column name: tenant: SQLITE_ERROR')));
    await new ThreadIndex(raced.db).setStatus('t1', 'waiting', 'general', true);
    expect(raced.statements.some((sql) => sql.startsWith('UPDATE threads SET'))).toBe(true);
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
    // The first try failed at its first ALTER; the second adds all four.
    expect(adds(statements)).toHaveLength(5);
    expect(statements.some((sql) => sql.startsWith('UPDATE'))).toBe(true);
  });
});
