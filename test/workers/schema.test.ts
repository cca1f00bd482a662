/**
 * THR-5, THR-3: a thread object created by an earlier version of the runtime is brought up to date
 * when it starts (its idempotency keys gain their message fingerprint), keeping what it stored; an
 * object already up to date starts without touching its schema; an object no thread lives in (an
 * unknown id asked for, a thread deleted) keeps no tables at all; tables most threads never use
 * (idempotency keys, MCP servers) are made only by the first write that needs them.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { migrate, SCHEMA_VERSION, THREAD_SCHEMA } from '../../src/thread/storage/sql-schema.js';
import { api, createThread } from '../support/api.js';

const columns = (sql: SqlStorage, table: string) =>
  sql
    .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .toArray()
    .map((row) => row.name);

describe('the thread schema', () => {
  it('THR-5: an object of the first schema gains the fingerprint column and keeps its keys', async () => {
    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    await runInDurableObject(stub, async (_instance, state) => {
      const { sql } = state.storage;
      // The object as the first schema left it: no fingerprint column, no schema version.
      sql.exec('DROP TABLE IF EXISTS idempotency');
      sql.exec('CREATE TABLE idempotency (key TEXT PRIMARY KEY, message_id TEXT NOT NULL)');
      sql.exec("INSERT INTO idempotency (key, message_id) VALUES ('k1', 'm1')");
      sql.exec("DELETE FROM meta WHERE key = 'schema_version'");
      const before = sql.exec<{ n: number }>('SELECT count(*) AS n FROM messages').one().n;

      migrate(sql);

      expect(columns(sql, 'idempotency')).toEqual(['key', 'message_id', 'body_hash']);
      expect(sql.exec('SELECT key, message_id, body_hash FROM idempotency').toArray()).toEqual([
        { key: 'k1', message_id: 'm1', body_hash: null },
      ]);
      expect(sql.exec<{ n: number }>('SELECT count(*) AS n FROM messages').one().n).toBe(before);
      expect(sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").one().value).toBe(
        JSON.stringify(SCHEMA_VERSION),
      );
    });
  });

  it('a new object gets every table in one pass, and an up-to-date one is left alone', async () => {
    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    await runInDurableObject(stub, async (_instance, state) => {
      const { sql } = state.storage;
      const tables = () =>
        sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name != 'sqlite_sequence' ORDER BY name",
          )
          .toArray()
          .map((row) => row.name);
      const schema = THREAD_SCHEMA.map((statement) => /CREATE TABLE IF NOT EXISTS (\w+)/.exec(statement)?.[1]);
      // Beside the schema, the one table every thread's creation writes to: its index outbox.
      const expected = [...schema, 'index_outbox'].sort();
      expect(tables()).toEqual(expected);
      expect(tables()).not.toContain('idempotency');
      expect(tables()).not.toContain('mcp_servers');
      // Up to date: a table dropped behind the schema's back is not recreated, so nothing ran.
      sql.exec('DROP TABLE children');
      migrate(sql);
      expect(tables()).not.toContain('children');
      sql.exec("DELETE FROM meta WHERE key = 'schema_version'");
      migrate(sql);
      expect(tables()).toEqual(expected);
    });
  });

  it('THR-5: asking for a thread that does not exist, or deleting one, leaves its object without tables', async () => {
    const tables = (sql: SqlStorage) =>
      sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
        )
        .toArray()
        .map((row) => row.name);
    const unknown = crypto.randomUUID();
    expect((await api(`/api/threads/${unknown}`)).status).toBe(404);
    expect((await api(`/api/threads/${unknown}/messages`)).status).toBe(404);
    await runInDurableObject(env.THREADS.get(env.THREADS.idFromName(unknown)), async (_instance, state) => {
      expect(tables(state.storage.sql)).toEqual([]);
    });

    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    await runInDurableObject(stub, async (_instance, state) => {
      expect(tables(state.storage.sql)).toContain('messages');
    });
    expect((await api(`/api/threads/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/threads/${id}`)).status).toBe(404);
    await runInDurableObject(stub, async (_instance, state) => {
      expect(tables(state.storage.sql)).toEqual([]);
    });
  });

  it('THR-5: the idempotency table is made by the first message with a key, and the key is honoured from then on', async () => {
    const id = await createThread({ agent: 'general' });
    const stub = env.THREADS.get(env.THREADS.idFromName(id));
    const hasTable = () =>
      runInDurableObject(
        stub,
        async (_instance, state) =>
          state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'idempotency'").toArray().length,
      );
    const post = (content: string, headers: Record<string, string> = {}) =>
      api(`/api/threads/${id}/messages`, { method: 'POST', json: { content }, headers });
    // A message without a key leaves no table behind.
    expect((await post('no key')).status).toBe(202);
    expect(await hasTable()).toBe(0);
    const key = { 'idempotency-key': `k-${crypto.randomUUID()}` };
    const first = (await (await post('with a key', key)).json()) as { messageId: string; replayed: boolean };
    expect(first.replayed).toBe(false);
    expect(await hasTable()).toBe(1);
    const again = (await (await post('with a key', key)).json()) as { messageId: string; replayed: boolean };
    expect(again).toMatchObject({ messageId: first.messageId, replayed: true });
    expect((await post('another message', key)).status).toBe(422);
  });
});
