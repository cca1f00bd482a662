/**
 * A thread's file history: what a fork copies and what a rewind puts back (FORK-5). Every change of a
 * path through the counted store (a tool's write or delete, either half of a move, an upload, a
 * message's file, a child's files copied in) first records, once per path per log position, what
 * the path held: nothing, or a copy of its bytes in R2 under `history/<thread id>/`. The position is
 * the seq of the newest message when the change is made, so the files at message seq `s` are the
 * current files, except that each path changed at `s` or later takes what its earliest such change
 * recorded.
 *
 * The copies are bounded (the thread's file quota in bytes by default): past it the oldest records
 * go, and every point at or before the newest dropped position can no longer be reached. The copies
 * sit outside the thread's quota and go with the thread.
 */
import type { FileStore } from '../../engine/ports/index.js';
import { deleteUnder, threadPrefix } from '../bindings/index.js';
import { type HistoryRow, HistoryRows, type ThreadMeta } from '../storage/index.js';
import { putCopyBack } from './stored-copy.js';

/** Where a thread's history copies are kept: beside its files, never listed as one of them. */
export function historyPrefix(threadId: string): string {
  return `history/${threadId}/`;
}

/** Meta key: the newest log position whose records were dropped (absent: none ever was). */
const EXPIRED_KEY = 'file_history_expired_seq';

/** R2 deletes take at most this many keys at once. */
const DELETE_BATCH = 1000;

/** A file as it was at a point of the log: the R2 key holding its bytes then. */
export interface FileAtPoint {
  path: string;
  key: string;
  size: number;
}

export interface FileHistoryOptions {
  storage: DurableObjectStorage;
  bucket: R2Bucket;
  meta: ThreadMeta;
  threadId: () => string;
  /** The seq of the newest message: the position a change is recorded at. */
  newestSeq: () => number;
  /** Bytes of copies kept before the oldest go. */
  budgetBytes: number;
  /**
   * Records at positions after this one are kept whatever the budget (null: none): the running turn's,
   * whose copies its undo journal may be sharing for a rollback.
   */
  keepAfter?: () => number | null;
}

/** The custom metadata a copy keeps, so a file put back has its dimensions and metadata again. */
function copyMetadata(object: R2Object): Record<string, string> {
  return { ...(object.customMetadata ?? {}) };
}

export class FileHistory {
  private readonly rows: HistoryRows;
  /** Records under way: two concurrent changes of one path at one position record it once. */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(private readonly options: FileHistoryOptions) {
    this.rows = new HistoryRows(options.storage);
  }

  /**
   * Records `path` at the current position, as `before` does, for a turn's undo journal: answers the
   * record when this very call made it (its copy then holds what the path holds now, and the journal
   * shares it rather than copy the bytes again), undefined when the position already had one, which
   * may hold an earlier state.
   */
  async recordForUndo(path: string): Promise<{ copyKey: string | null } | undefined> {
    const seq = this.options.newestSeq();
    if (this.rows.has(path, seq) || this.recording.has(`${seq}\u0000${path}`)) {
      await this.before(path);
      return undefined;
    }
    await this.before(path);
    const row = this.rows.at(path, seq);
    return row ? { copyKey: row.copyKey } : undefined;
  }

  /** Called before `path` changes: records what it holds, once per position. */
  before(path: string): Promise<void> {
    const seq = this.options.newestSeq();
    if (this.rows.has(path, seq)) return Promise.resolve();
    const key = `${seq}\u0000${path}`;
    let pending = this.recording.get(key);
    if (!pending) {
      pending = this.record(path, seq).finally(() => this.recording.delete(key));
      this.recording.set(key, pending);
    }
    return pending;
  }

  private async record(path: string, seq: number): Promise<void> {
    const { bucket, threadId } = this.options;
    const current = await bucket.get(`${threadPrefix(threadId())}${path}`);
    let copyKey: string | null = null;
    let size = 0;
    if (current) {
      copyKey = `${historyPrefix(threadId())}${crypto.randomUUID()}`;
      size = current.size;
      await bucket.put(copyKey, current.body.pipeThrough(new FixedLengthStream(current.size)), {
        httpMetadata: current.httpMetadata ?? {},
        customMetadata: copyMetadata(current),
      });
    }
    // Recorded only once the copy is whole: a restart before this records the path again.
    if (!this.rows.record(path, seq, copyKey, size) && copyKey) await bucket.delete(copyKey);
    await this.trim();
  }

  /** Drops the oldest records until the copies fit the budget. */
  private async trim(): Promise<void> {
    let excess = this.rows.bytes() - this.options.budgetBytes;
    const keepAfter = this.options.keepAfter?.() ?? null;
    while (excess > 0) {
      const batch = this.rows.oldest(100).filter((row) => keepAfter === null || row.seq <= keepAfter);
      if (batch.length === 0) return;
      const dropped: HistoryRow[] = [];
      for (const row of batch) {
        if (excess <= 0) break;
        dropped.push(row);
        excess -= row.size;
      }
      await this.drop(dropped);
      const newest = Math.max(...dropped.map((row) => row.seq));
      if (newest > (this.expiredThrough() ?? -1)) this.options.meta.set(EXPIRED_KEY, newest);
    }
  }

  /**
   * A fork's history starts at its fork point: the files before it were its source's, never
   * recorded here, so points before `seq` are out of reach as if their records had been dropped.
   */
  static startAt(meta: ThreadMeta, seq: number): void {
    meta.set(EXPIRED_KEY, seq - 1);
  }

  /** The newest position whose records were dropped (points at or before it cannot be reached); null: none was. */
  expiredThrough(): number | null {
    return this.options.meta.get<number>(EXPIRED_KEY);
  }

  /** Whether the files at message seq `seq` can still be told. */
  reaches(seq: number): boolean {
    const expired = this.expiredThrough();
    return expired === null || seq > expired;
  }

  /** The thread's files as they were at message seq `seq` (the caller checked `reaches`). */
  async filesAt(seq: number): Promise<FileAtPoint[]> {
    const { bucket, threadId } = this.options;
    const changed = new Map(this.rows.earliestFrom(seq).map((row) => [row.path, row]));
    const files: FileAtPoint[] = [];
    const prefix = threadPrefix(threadId());
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix: `${prefix}/`, cursor });
      for (const object of page.objects) {
        const path = object.key.slice(prefix.length);
        if (!changed.has(path)) files.push({ path, key: object.key, size: object.size });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    for (const row of changed.values()) {
      if (row.copyKey) files.push({ path: row.path, key: row.copyKey, size: row.size });
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Puts the files back as they were at message seq `seq` through `store` (counted, not recorded
   * again), then forgets every record from `seq` on. Returns how many paths it put back.
   */
  async restore(seq: number, store: FileStore): Promise<number> {
    const rows = this.rows.earliestFrom(seq);
    // Deletions first: the space they free is there for the copies written back.
    const ordered = [...rows.filter((row) => row.copyKey === null), ...rows.filter((row) => row.copyKey !== null)];
    let restored = 0;
    for (const row of ordered) {
      if (await this.putBack(row, store)) restored++;
    }
    await this.drop(this.rows.from(seq));
    return restored;
  }

  private async putBack(row: HistoryRow, store: FileStore): Promise<boolean> {
    if (row.copyKey === null) return store.delete(row.path);
    await putCopyBack(this.options.bucket, row.copyKey, row.path, store, 'history');
    return true;
  }

  private async drop(rows: readonly HistoryRow[]): Promise<void> {
    const keys = rows.map((row) => row.copyKey).filter((key): key is string => key !== null);
    this.rows.remove(rows.map((row) => row.id));
    for (let at = 0; at < keys.length; at += DELETE_BATCH) {
      await this.options.bucket.delete(keys.slice(at, at + DELETE_BATCH));
    }
  }

  /** After the storage was erased. */
  forget(): void {
    this.rows.forget();
  }

  /** A deleted thread's history copies. */
  static deleteAll(bucket: R2Bucket, threadId: string): Promise<void> {
    return deleteUnder(bucket, historyPrefix(threadId));
  }
}
