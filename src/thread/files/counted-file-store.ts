/**
 * A thread's files as its Durable Object stores them (ATT-1, ATT-6): R2 under the thread's storage
 * quota. Every write the object makes passes here — a tool's, an attachment, a truncation sidecar,
 * an upload over HTTP (which the Worker streams to the object), a child's files copied in — and is
 * counted in the thread's SQLite (file-ledger.ts) before a byte is sent: a write past the quota is
 * refused with nothing stored.
 *
 * With a file history (file-history.ts), each change first records what its path held, so a fork
 * or a rewind can tell the files at any point of the log; `unrecorded()` is the view a rewind or a
 * rollback writes through, whose writes put history back rather than make it.
 *
 * Writes an earlier instance of the object left unsettled (it was evicted mid-write) are settled from
 * what R2 holds before the next write; a thread created before files were counted is counted from
 * its R2 listing the first time.
 */
import type { FileListing, FileStore, ListOptions, StoredFileMeta } from '../../engine/ports/index.js';
import type { FileStat } from '../../spec/index.js';
import type { R2FileStore } from '../bindings/index.js';
import { FILES_UNCOUNTED_KEY, type ThreadMeta } from '../storage/index.js';
import type { FileHistory } from './file-history.js';
import { type CountedFile, FileLedger } from './file-ledger.js';
import { isSidecarPath, noteSidecar } from './sidecar-sweep.js';

/** What GET /api/threads/:id shows of a thread's storage. */
export interface StorageUsage {
  bytes: number;
  quota_bytes: number;
}

export class CountedFileStore implements FileStore {
  private readonly ledger: FileLedger;
  private settled: Promise<void> | null = null;

  constructor(
    private readonly r2: R2FileStore,
    private readonly storage: DurableObjectStorage,
    private readonly meta: ThreadMeta,
    readonly quota: number,
    /** Records each change before it is made (FORK-5); none for a store that keeps no history. */
    readonly history: FileHistory | null = null,
  ) {
    this.ledger = new FileLedger(storage);
  }

  /** The same files, counted, whose changes record no history: what puts history back writes here. */
  unrecorded(): FileStore {
    return new CountedFileStore(this.r2, this.storage, this.meta, this.quota, null);
  }

  /** As the ledger stands: writes an earlier instance left unsettled count at their full size. */
  usage(): StorageUsage {
    return { bytes: this.ledger.used(), quota_bytes: this.quota };
  }

  /** Once what an earlier instance left is settled. */
  async settledUsage(): Promise<StorageUsage> {
    await this.ready();
    return this.usage();
  }

  /** Throws StorageQuotaExceeded, before anything is copied, when the files would not fit together. */
  async checkFits(files: readonly CountedFile[]): Promise<void> {
    await this.ready();
    const writes: number[] = [];
    try {
      for (const file of files) writes.push(this.ledger.reserve(file.path, file.size, this.quota));
    } finally {
      // Held only for the check: each copy then reserves its own write.
      for (const write of writes) this.ledger.release(write);
    }
  }

  async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta): Promise<FileStat> {
    await this.ready();
    await this.history?.before(path);
    const bytes = data instanceof Uint8Array ? data.byteLength : meta.size;
    if (bytes === undefined) throw new Error(`storing ${path}: a streamed file needs its size`);
    const write = this.ledger.reserve(path, bytes, this.quota);
    try {
      const stat = await this.r2.put(path, data, meta);
      this.ledger.settle(write, stat.size);
      // SIDE-1: the alarm comes for a sidecar once its retention has passed.
      if (isSidecarPath(path)) noteSidecar(this.meta, stat.uploadedAt);
      return stat;
    } catch (error) {
      await this.settleFromR2(write, path);
      throw error;
    }
  }

  /**
   * Stores a file that arrives in pieces of one size whose total is known only at the end (a file
   * streamed with a message, MSG-3): each piece is counted against the quota before it is sent, and
   * one past it throws StorageQuotaExceeded with the upload aborted and nothing stored. One piece goes
   * up as a plain write; more, as an R2 multipart upload.
   */
  async putPieces(path: string, pieces: AsyncIterable<Uint8Array>, meta: StoredFileMeta): Promise<FileStat> {
    await this.ready();
    await this.history?.before(path);
    const iterator = pieces[Symbol.asyncIterator]();
    const first = await iterator.next();
    const second = first.done ? first : await iterator.next();
    if (second.done) return this.put(path, first.done ? new Uint8Array() : first.value, meta);
    let write = this.ledger.reserve(path, 0, this.quota);
    const ledger = this.ledger;
    const quota = this.quota;
    async function* counted(): AsyncGenerator<Uint8Array> {
      let total = 0;
      for (let next = first; !next.done; next = next === first ? second : await iterator.next()) {
        total += next.value.length;
        // Released then reserved anew with nothing awaited between: the write counts once.
        ledger.release(write);
        write = ledger.reserve(path, total, quota);
        yield next.value;
      }
    }
    try {
      const stat = await this.r2.putParts(path, counted(), meta);
      this.ledger.settle(write, stat.size);
      return stat;
    } catch (error) {
      await this.settleFromR2(write, path);
      throw error;
    }
  }

  async delete(path: string): Promise<boolean> {
    await this.ready();
    // A delete of nothing changes nothing: no history for it.
    if (this.history && (await this.r2.head(path))) await this.history.before(path);
    const write = this.ledger.reserve(path, 0, this.quota);
    try {
      const deleted = await this.r2.delete(path);
      this.ledger.settle(write, null);
      return deleted;
    } catch (error) {
      await this.settleFromR2(write, path);
      throw error;
    }
  }

  get(path: string) {
    return this.r2.get(path);
  }

  head(path: string): Promise<FileStat | null> {
    return this.r2.head(path);
  }

  list(prefix: string, options: ListOptions): Promise<FileListing> {
    return this.r2.list(prefix, options);
  }

  /** A write whose outcome is unknown (it failed, or the object restarted during it) takes R2's word. */
  private async settleFromR2(write: number, path: string): Promise<void> {
    const stat = await this.r2.head(path);
    this.ledger.settle(write, stat ? stat.size : null);
  }

  /** Settles what an earlier instance left, once per instance (again after a failure). */
  private ready(): Promise<void> {
    this.settled ??= this.settle().catch((error: unknown) => {
      this.settled = null;
      throw error;
    });
    return this.settled;
  }

  private async settle(): Promise<void> {
    for (const { id, path } of this.ledger.unsettled()) await this.settleFromR2(id, path);
    if (this.meta.get<boolean>(FILES_UNCOUNTED_KEY)) {
      const { files } = await this.r2.list('/', { recursive: true });
      this.ledger.record(files.map((file) => ({ path: file.path, size: file.size })));
      this.meta.set(FILES_UNCOUNTED_KEY, false);
    }
  }
}
