/**
 * A turn's file undo journal: what a rollback (a message posted with `on_busy: "rollback"`) needs to
 * put the thread's files back as they were before the interrupted turn. The turn writes through
 * `journaled(store)`: the first change of each path in the turn (a write, a delete, either half of a
 * move) first records what the path held — nothing, or its bytes copied to an undo key in R2 —
 * in the thread's SQLite (storage/undo-rows.ts), so the journal outlives an eviction mid-turn.
 *
 * The cost falls only on turns that change files: one R2 read per path changed (and one R2 write of
 * its earlier bytes when it existed) and one SQLite row, once per path per turn; a turn that writes
 * nothing pays one cached table check when it ends. Undo copies sit outside the thread's file
 * quota while the turn runs and are deleted when it ends.
 *
 * The thread's file history (file-history.ts) records the same earlier bytes at the same moment, so
 * the journal shares the history's copy when the history has just made it: a write is copied once.
 * A shared copy is the history's: the journal never deletes it, and the history keeps the running
 * turn's copies whatever its budget until the turn is over.
 */
import type { FileStore, StoredFileMeta } from '../../engine/ports/index.js';
import type { FileStat } from '../../spec/index.js';
import { deleteUnder, R2FileStore } from '../bindings/index.js';
import { type UndoRow, UndoRows } from '../storage/index.js';
import type { FileHistory } from './file-history.js';
import { putCopyBack } from './stored-copy.js';

/** Where a thread's undo copies are kept: beside its files, never listed as one of them. */
export function undoPrefix(threadId: string): string {
  return `undo/${threadId}/`;
}

/** R2 deletes take at most this many keys at once. */
const DELETE_BATCH = 1000;

export class FileUndoJournal {
  private readonly rows: UndoRows;
  /** Paths recorded in this turn, read from SQLite once per instance. */
  private recorded: Set<string> | null = null;
  /** Records under way: two concurrent writes of one path record it once. */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(
    storage: DurableObjectStorage,
    private readonly bucket: R2Bucket,
    private readonly threadId: () => string,
    /** The thread's file history, whose copies the journal shares (none: the journal copies itself). */
    private readonly history: () => FileHistory | null = () => null,
  ) {
    this.rows = new UndoRows(storage);
  }

  /** `store` as a turn writes it: each change first records what its path held. */
  journaled(store: FileStore): FileStore {
    const journal = this;
    return {
      ...(store.quota !== undefined ? { quota: store.quota } : {}),
      async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta): Promise<FileStat> {
        await journal.before(path);
        return store.put(path, data, meta);
      },
      async delete(path: string): Promise<boolean> {
        await journal.before(path);
        return store.delete(path);
      },
      get: (path) => store.get(path),
      head: (path) => store.head(path),
      list: (prefix, options) => store.list(prefix, options),
    };
  }

  private before(path: string): Promise<void> {
    this.recorded ??= new Set(this.rows.all().map((row) => row.path));
    if (this.recorded.has(path)) return Promise.resolve();
    let pending = this.recording.get(path);
    if (!pending) {
      pending = this.record(path).finally(() => this.recording.delete(path));
      this.recording.set(path, pending);
    }
    return pending;
  }

  private async record(path: string): Promise<void> {
    const shared = await this.history()?.recordForUndo(path);
    if (shared) {
      this.rows.record(path, shared.copyKey);
      this.recorded?.add(path);
      return;
    }
    const found = await new R2FileStore(this.bucket, this.threadId()).get(path);
    let undoKey: string | null = null;
    if (found) {
      const { stat, body } = found;
      undoKey = `${undoPrefix(this.threadId())}${crypto.randomUUID()}`;
      await this.bucket.put(undoKey, body.pipeThrough(new FixedLengthStream(stat.size)), {
        httpMetadata: { contentType: stat.mimeType },
        customMetadata: {
          ...(stat.width !== undefined ? { width: String(stat.width) } : {}),
          ...(stat.height !== undefined ? { height: String(stat.height) } : {}),
          ...(stat.metadata !== undefined ? { metadata: JSON.stringify(stat.metadata) } : {}),
        },
      });
    }
    // Recorded only once the copy is whole: a restart before this leaves the path unchanged too.
    this.rows.record(path, undoKey);
    this.recorded?.add(path);
  }

  /**
   * Puts every recorded path back through `store` (the counted store, so the quota's ledger follows):
   * paths the turn created are deleted, the others written again from their copies. Returns the
   * paths it could not put back.
   */
  async restore(store: FileStore): Promise<string[]> {
    const rows = this.rows.all();
    const failed: string[] = [];
    // Deletions first: the space they free is there for the copies written back.
    const ordered = [...rows.filter((row) => row.undoKey === null), ...rows.filter((row) => row.undoKey !== null)];
    for (const row of ordered) {
      try {
        await this.putBack(row, store);
      } catch {
        failed.push(row.path);
      }
    }
    await this.clear();
    return failed;
  }

  private async putBack(row: UndoRow, store: FileStore): Promise<void> {
    if (row.undoKey === null) {
      await store.delete(row.path);
      return;
    }
    await putCopyBack(this.bucket, row.undoKey, row.path, store, 'undo');
  }

  /** The turn is over (or put back): its records and undo copies go. */
  async clear(): Promise<void> {
    this.recorded = new Set();
    // Only the journal's own copies: a copy shared with the file history stays the history's.
    const own = undoPrefix(this.threadId());
    const keys = this.rows
      .all()
      .map((row) => row.undoKey)
      .filter((key): key is string => key?.startsWith(own) === true);
    for (let at = 0; at < keys.length; at += DELETE_BATCH) await this.bucket.delete(keys.slice(at, at + DELETE_BATCH));
    this.rows.clear();
  }

  /** A deleted thread's undo copies, wherever its journal stood. */
  static deleteAll(bucket: R2Bucket, threadId: string): Promise<void> {
    return deleteUnder(bucket, undoPrefix(threadId));
  }
}
