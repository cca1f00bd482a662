/**
 * What a turn writes to the thread's SQLite, which Cloudflare bills by the row (docs/observability.md,
 * "What a turn costs"): a tool round may write at most the documented number of rows, counted from
 * the cursors of every statement the thread's object runs while a scripted model makes its rounds.
 * And what the saving must not cost: a message's number is never given again, not after a rewind
 * removed the newest messages, nor after the object was evicted since.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';

/**
 * The SQLite rows a tool round writes (docs/observability.md), besides its `tool_call_delta` frames
 * (a row each): 12 in all for a call the model writes within 50 ms (one such frame), half of the 24 a
 * round wrote before. The scripted model writes its calls at once.
 */
const ROWS_WRITTEN_PER_TOOL_ROUND = 11;

function stubFor(id: string) {
  return env.THREADS.get(env.THREADS.idFromName(id));
}

/**
 * Counts the rows every statement of the thread's object writes from now on (until it is evicted):
 * its storage's `sql.exec` is wrapped, and each cursor's `rowsWritten` read when the count is asked.
 */
async function countRowsWritten(id: string): Promise<() => Promise<number>> {
  await runInDurableObject(stubFor(id), (_instance, state) => {
    const sql = state.storage.sql as SqlStorage & { cursors?: SqlStorageCursor<Record<string, SqlStorageValue>>[] };
    const exec = sql.exec.bind(sql);
    const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
    sql.cursors = cursors;
    sql.exec = ((query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...bindings);
      cursors.push(cursor);
      return cursor;
    }) as typeof sql.exec;
  });
  return () =>
    runInDurableObject(stubFor(id), (_instance, state) => {
      const sql = state.storage.sql as SqlStorage & { cursors?: SqlStorageCursor<Record<string, SqlStorageValue>>[] };
      const cursors = sql.cursors ?? [];
      const total = cursors.reduce((sum, cursor) => sum + cursor.rowsWritten, 0);
      cursors.length = 0;
      return total;
    });
}

/** The `tool_call_delta` frames the thread has stored. */
async function toolCallDeltas(id: string): Promise<number> {
  return runInDurableObject(
    stubFor(id),
    (_instance, state) =>
      state.storage.sql
        .exec<{ body: string }>('SELECT body FROM frames')
        .toArray()
        .filter((row) => (JSON.parse(row.body) as { type: string }).type === 'tool_call_delta').length,
  );
}

/** A turn of `rounds` tool rounds (one `echo` call each), then a text answer. */
function turnOf(rounds: number, label: string): string {
  return directive([
    ...Array.from({ length: rounds }, (_, round) => ({
      toolCalls: [{ name: 'echo', arguments: { text: `${label} ${round}` } }],
    })),
    { text: `${label} done` },
  ]);
}

async function post(id: string, content: string): Promise<void> {
  const response = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } });
  expect(response.status).toBe(202);
}

async function answered(id: string, text: string): Promise<Message[]> {
  return until(
    () => settled(id),
    (log) => log.at(-1)?.content === text,
  );
}

describe('what a turn writes', () => {
  it(`USE-6: a tool round writes at most ${ROWS_WRITTEN_PER_TOOL_ROUND} SQLite rows besides its tool_call_delta frames`, async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: turnOf(0, 'start') }] });
    await answered(id, 'start done');
    const rowsWritten = await countRowsWritten(id);
    // Two turns that differ only in their number of rounds: the difference is what the rounds wrote.
    const deltasBefore = await toolCallDeltas(id);
    await post(id, turnOf(1, 'short'));
    await answered(id, 'short done');
    const short = await rowsWritten();
    const deltasShort = (await toolCallDeltas(id)) - deltasBefore;
    await post(id, turnOf(6, 'long'));
    const log = await answered(id, 'long done');
    const long = await rowsWritten();
    const deltasLong = (await toolCallDeltas(id)) - deltasBefore - deltasShort;
    expect(log.filter((message) => message.role === 'tool')).toHaveLength(7);
    const perRound = (long - short) / 5;
    const deltasPerRound = (deltasLong - deltasShort) / 5;
    expect(deltasPerRound).toBeGreaterThanOrEqual(1);
    expect(perRound).toBeGreaterThan(0);
    expect(perRound).toBeLessThanOrEqual(ROWS_WRITTEN_PER_TOOL_ROUND + deltasPerRound);
  });

  it('USE-7: a message after a rewind, and after the object was evicted since, takes a number never given before', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: turnOf(2, 'first') }] });
    const before = await answered(id, 'first done');
    const highest = Math.max(...before.map((message) => message.seq));
    const point = before[0] as Message;
    const rewound = await api(`/api/threads/${id}/rewind`, { method: 'POST', json: { to: point.id, force: true } });
    expect(rewound.status).toBe(200);
    await evictDurableObject(stubFor(id));
    await post(id, turnOf(0, 'again'));
    const after = await answered(id, 'again done');
    const added = after.slice(1);
    expect(added.length).toBeGreaterThan(0);
    for (const message of added) expect(message.seq).toBeGreaterThan(highest);
    // In order, and the kept message as it was.
    expect(after.map((message) => message.seq)).toEqual([...after.map((message) => message.seq)].sort((a, b) => a - b));
    expect(after[0]).toEqual(point);
  });
});
