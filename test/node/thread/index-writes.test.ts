/**
 * THR-1: a thread's writes to the D1 index go in order (its row before any status, each status after
 * the one before), and while one is under way only the newest waiting status is written. Driven
 * with an index whose writes finish only when the test lets them, so every interleaving is chosen,
 * over an in-memory outbox that keeps what the thread's SQLite table keeps (index-outbox-rows.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/spec/index.js';
import type { IndexedThread, IndexedWait, ThreadIndex } from '../../../src/thread/bindings/index.js';
import { IndexWrites, type StatusChange } from '../../../src/thread/object/index-writes.js';
import type { IndexOutbox, OutboxEntry } from '../../../src/thread/storage/index.js';

/** The outbox's rules, in memory: one entry, a newer change replacing the one waiting. */
function memoryOutbox(): IndexOutbox<StatusChange> & { entry: OutboxEntry<StatusChange> | null } {
  const blank = { row: null, change: null, version: 0, attempts: 0, nextAt: null, refused: null };
  const outbox = {
    entry: null as OutboxEntry<StatusChange> | null,
    recordRow: (row: IndexedThread) => {
      outbox.entry = { ...blank, row, version: 1 };
    },
    recordChange: (change: StatusChange) => {
      const entry = outbox.entry ?? blank;
      outbox.entry = { ...entry, change, version: entry.version + 1, refused: null };
    },
    pending: () => (outbox.entry ? { ...outbox.entry } : null),
    sent: (version: number) => {
      if (!outbox.entry) return;
      outbox.entry =
        outbox.entry.version === version ? null : { ...outbox.entry, row: null, attempts: 0, nextAt: null };
    },
    failed: (attempts: number, nextAt: number) => {
      if (outbox.entry) outbox.entry = { ...outbox.entry, attempts, nextAt };
    },
    refuse: (refused: string) => {
      if (outbox.entry) outbox.entry = { ...outbox.entry, refused, nextAt: null };
    },
    forget: () => {},
  };
  return outbox;
}

function memoryMarks() {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string) => (values.get(key) ?? null) as T | null,
    set: (key: string, value: unknown) => values.set(key, value),
  };
}

/** An index that records each write when it starts and finishes it only on `release()`. */
function heldIndex() {
  const writes: string[] = [];
  const held: Array<() => void> = [];
  const hold = (entry: string) =>
    new Promise<void>((resolve) => {
      writes.push(entry);
      held.push(resolve);
    });
  /** The open waits each write carried, by tool call id, in the order the writes started. */
  const waits: string[][] = [];
  const ids = (list: readonly IndexedWait[] = []) => list.map((wait) => wait.tool_call_id);
  const index = {
    insert: (row: IndexedThread, _person: boolean, carried?: IndexedWait[]) => {
      waits.push(ids(carried));
      return hold(`insert ${row.status} ${row.agent}`);
    },
    setStatus: (_id: string, status: string, agent: string, _person: boolean, carried?: IndexedWait[]) => {
      waits.push(ids(carried));
      return hold(`status ${status} ${agent}`);
    },
  } as unknown as ThreadIndex;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    index,
    writes,
    waits,
    /** Finishes the oldest write under way, then lets the queue move on. */
    release: async () => {
      held.shift()?.();
      await settle();
    },
    settle,
  };
}

/** A Durable Object state with an alarm slot, the only storage the writes touch besides the outbox. */
function fakeCtx() {
  const state = { alarm: null as number | null };
  const ctx = {
    waitUntil: () => {},
    storage: {
      getAlarm: async () => state.alarm,
      setAlarm: async (at: number) => {
        state.alarm = at;
      },
    },
  } as unknown as DurableObjectState;
  return { ctx, state };
}
const { ctx } = fakeCtx();
const row: IndexedThread = {
  id: 't1',
  agent: 'general',
  tenant: 'default',
  user_id: 'u',
  shared: false,
  parent_id: null,
  forked_from: null,
  status: 'idle',
  tags: [],
  created_at: 0,
  updated_at: 0,
};

describe('IndexWrites', () => {
  it('THR-1: a status set before the row is written goes into the row; none is written ahead of it', async () => {
    const held = heldIndex();
    const writes = new IndexWrites(held.index, ctx, () => {}, memoryOutbox(), memoryMarks());
    writes.recordRow(row);
    const inserted = writes.created();
    writes.status('t1', 'running', 'general');
    await held.settle();
    expect(held.writes).toEqual(['insert running general']);
    await held.release();
    await inserted;
    await writes.settled();
    expect(held.writes).toEqual(['insert running general']);
  });

  it('THR-1: statuses set during a write wait for it, and only the newest of them is written', async () => {
    const held = heldIndex();
    const writes = new IndexWrites(held.index, ctx, () => {}, memoryOutbox(), memoryMarks());
    writes.recordRow(row);
    const inserted = writes.created();
    await held.settle();
    writes.status('t1', 'running', 'general');
    writes.status('t1', 'waiting', 'general');
    writes.status('t1', 'idle', 'other');
    await held.settle();
    expect(held.writes).toEqual(['insert idle general']);
    await held.release();
    await inserted;
    expect(held.writes).toEqual(['insert idle general', 'status idle other']);
    writes.status('t1', 'running', 'other');
    await held.release();
    await held.release();
    await writes.settled();
    expect(held.writes).toEqual(['insert idle general', 'status idle other', 'status running other']);
  });

  it('INBOX-1: each status carries the open waits read when it was set; the one written carries its own', async () => {
    const held = heldIndex();
    const writes = new IndexWrites(held.index, ctx, () => {}, memoryOutbox(), memoryMarks());
    const open: Interaction[] = [];
    const wait = (toolCallId: string): Interaction => ({
      toolCallId,
      toolName: 'question',
      kind: 'question',
      payload: { questions: [] },
      createdAt: 1,
      answered: false,
      answer: null,
    });
    writes.recordRow(row);
    const inserted = writes.created();
    await held.settle();
    open.push(wait('c1'), wait('c2'));
    writes.status('t1', 'waiting', 'general', () => open);
    // Answered while the row was being written: the newer status reads one wait, and is the one written.
    open.shift();
    writes.status('t1', 'waiting', 'general', () => open);
    await held.release();
    await inserted;
    open.length = 0;
    writes.status('t1', 'running', 'general', () => open);
    await held.release();
    await held.release();
    await writes.settled();
    expect(held.writes).toEqual(['insert idle general', 'status waiting general', 'status running general']);
    expect(held.waits).toEqual([[], ['c2'], []]);
  });

  it('THR-1: a failed write is kept, logged and tried again from the alarm with backoff; a refusal for good is marked and not tried again', async () => {
    const errors: string[] = [];
    let answer: Error | null = new Error('D1_ERROR: Network connection lost.');
    const tried: string[] = [];
    const flaky = {
      insert: async (written: IndexedThread) => {
        tried.push(`insert ${written.status}`);
        if (answer) throw answer;
      },
      setStatus: async (_id: string, status: string) => {
        tried.push(`status ${status}`);
        if (answer) throw answer;
      },
    } as unknown as ThreadIndex;
    const { ctx: alarmed, state } = fakeCtx();
    const outbox = memoryOutbox();
    const marks = memoryMarks();
    const writes = new IndexWrites(flaky, alarmed, (line) => errors.push(line), outbox, marks);
    writes.recordRow(row);
    const before = Date.now();
    await writes.created();
    await writes.settled();
    expect(tried).toEqual(['insert idle']);
    expect(outbox.entry).toMatchObject({ attempts: 1, refused: null });
    expect(state.alarm).toBeGreaterThanOrEqual(before + 1_000);
    expect(errors[0]).toContain('attempt 1, next in 1000 ms');
    // The alarm's try fails too: the next waits twice as long.
    writes.retry();
    await writes.settled();
    expect(outbox.entry?.attempts).toBe(2);
    expect(errors[1]).toContain('attempt 2, next in 2000 ms');
    // Refused for good: marked, logged, and the alarm tries no more.
    answer = new Error('D1_ERROR: UNIQUE constraint failed: threads.id: SQLITE_CONSTRAINT');
    writes.retry();
    await writes.settled();
    expect(marks.values.get('index_error')).toContain('SQLITE_CONSTRAINT');
    expect(errors[2]).toContain('refused thread t1 for good');
    writes.retry();
    await writes.settled();
    expect(tried).toEqual(['insert idle', 'insert idle', 'insert idle']);
    // A later change tries once more, with the row still to write; accepted, the mark goes.
    answer = null;
    writes.status('t1', 'running', 'general');
    await writes.settled();
    expect(tried.at(-1)).toBe('insert running');
    expect(outbox.entry).toBeNull();
    expect(marks.values.get('index_error')).toBeNull();
  });
});
