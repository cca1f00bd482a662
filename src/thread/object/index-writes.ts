/**
 * The thread's writes to the D1 index (THR-1): its row, then its status as it changes, applied in
 * that order and off the turn's path. A status waits while an earlier write is under way, and only
 * the newest waiting status is written: a turn that ends before its `running` reached the index
 * costs one write, not two, and the index never moves backwards.
 */
import type { ThreadStatus } from '../../spec/index.js';
import type { IndexedThread, ThreadIndex } from '../bindings/index.js';

interface StatusChange {
  status: ThreadStatus;
  agent: string;
}

export class IndexWrites {
  private chain: Promise<void> = Promise.resolve();
  private waiting: StatusChange | null = null;

  constructor(
    private readonly index: ThreadIndex,
    private readonly ctx: DurableObjectState,
    private readonly logError: (message: string) => void,
  ) {}

  /** Writes the thread's row, with the newest status by then; rejects if D1 refuses it. */
  insert(row: IndexedThread): Promise<void> {
    const written = this.chain.then(() => {
      const latest = this.take();
      return this.index.insert(latest ? { ...row, status: latest.status, agent: latest.agent } : row);
    });
    this.chain = written.catch(() => {});
    return written;
  }

  status(id: string, status: ThreadStatus, agent: string): void {
    const queued = this.waiting !== null;
    this.waiting = { status, agent };
    if (queued) return;
    this.chain = this.chain
      .then(() => {
        const latest = this.take();
        return latest ? this.index.setStatus(id, latest.status, latest.agent) : undefined;
      })
      .catch((error) => this.logError(`thread index update failed for ${id}: ${(error as Error).message}`));
    this.ctx.waitUntil(this.chain);
  }

  /** Resolves once every write asked for so far is done (or has failed and been logged). */
  settled(): Promise<void> {
    return this.chain;
  }

  private take(): StatusChange | null {
    const latest = this.waiting;
    this.waiting = null;
    return latest;
  }
}
