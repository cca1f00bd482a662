/**
 * What forks and rewinds borrow from the thread's object: its store, files and history, variables,
 * frames and whether a turn is under way.
 */
import type { FrameSink } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { Message } from '../../spec/index.js';
import type { ApiError, RuntimeEnv } from '../bindings/index.js';
import type { CountedFileStore, FileHistory } from '../files/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { SqliteThreadStore, ThreadMeta } from '../storage/index.js';
import { runningTurnStart } from '../turn/index.js';
import { firstPointAbove } from './log-points.js';

export interface HistoryDesk {
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  readonly store: SqliteThreadStore;
  readonly meta: ThreadMeta;
  readonly variables: ThreadVariables;
  readonly files: CountedFileStore;
  readonly emit: FrameSink;
  /** A turn runs, or waits for an answer, or messages wait for it. */
  readonly busy: boolean;
}

/** The thread's file history: every counted store the object makes keeps one. */
export function historyOf(desk: HistoryDesk): FileHistory {
  const { history } = desk.files;
  if (!history) throw new Error('the thread keeps no file history');
  return history;
}

/** 409 `history_expired` when the files at message seq `seq` are no longer known, naming the oldest point that is. */
export function expiredHistory(desk: HistoryDesk, log: readonly Message[], seq: number): ApiError | null {
  const history = historyOf(desk);
  if (history.reaches(seq)) return null;
  const oldest = firstPointAbove(log, history.expiredThrough() ?? -1);
  return {
    status: 409,
    code: 'history_expired',
    message: `the thread's file history no longer reaches this point; the oldest point it reaches is ${oldest ?? 'none'}`,
    details: { oldest },
  };
}

/** 409 `point_running` for a point inside the turn the thread is running. */
export function runningPoint(desk: HistoryDesk, seq: number): ApiError | null {
  if (desk.meta.status() !== 'running') return null;
  const start = runningTurnStart(desk.meta);
  if (start === null || seq <= start) return null;
  return {
    status: 409,
    code: 'point_running',
    message: 'this point is inside the turn the thread is running: wait for it to end, or pick an earlier point',
  };
}
