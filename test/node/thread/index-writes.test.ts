/**
 * THR-1: a thread's writes to the D1 index go in order (its row before any status, each status after
 * the one before), and while one is under way only the newest waiting status is written. Driven
 * with an index whose writes finish only when the test lets them, so every interleaving is chosen.
 */
import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/spec/index.js';
import type { IndexedThread, IndexedWait, ThreadIndex } from '../../../src/thread/bindings/index.js';
import { IndexWrites } from '../../../src/thread/object/index-writes.js';

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

const ctx = { waitUntil: () => {} } as unknown as DurableObjectState;
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
    const writes = new IndexWrites(held.index, ctx, () => {});
    const inserted = writes.insert(row);
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
    const writes = new IndexWrites(held.index, ctx, () => {});
    const inserted = writes.insert(row);
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
    const writes = new IndexWrites(held.index, ctx, () => {});
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
    const inserted = writes.insert(row);
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

  it('THR-1: a refused row rejects its insert, and a failed status is logged, not thrown', async () => {
    const errors: string[] = [];
    const failing = {
      insert: async () => {
        throw new Error('D1 down');
      },
      setStatus: async () => {
        throw new Error('D1 down');
      },
    } as unknown as ThreadIndex;
    const writes = new IndexWrites(failing, ctx, (line) => errors.push(line));
    await expect(writes.insert(row)).rejects.toThrow('D1 down');
    writes.status('t1', 'running', 'general');
    await writes.settled();
    expect(errors).toEqual(['thread index update failed for t1: D1 down']);
  });
});
