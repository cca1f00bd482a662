/**
 * The thread's writes to the D1 index (THR-1): its row, then its status as it changes, applied in
 * that order and off the turn's path. A status waits while an earlier write is under way, and only
 * the newest waiting status is written: a turn that ends before its `running` reached the index
 * costs one write, not two, and the index never moves backwards. A waiting status records whether
 * a person's answer is among what the thread waits for (`?status=waiting` lists those threads).
 * Every status carries the thread's open waits as they were at that change, written with it: the
 * inbox of waits (`GET /api/waits`) is as current as the status beside it.
 */
import type { Interaction, ThreadStatus } from '../../spec/index.js';
import { HUMAN_INTERACTIONS } from '../../spec/internal.js';
import type { IndexedThread, IndexedWait, ThreadIndex } from '../bindings/index.js';
import { waitingFor } from './thread-details.js';

interface StatusChange {
  status: ThreadStatus;
  agent: string;
  personWaits: boolean;
  waits: IndexedWait[];
}

/** Whether a thread in `status` with these open waits waits on a person (or a client acting for one). */
export function waitsOnPerson(status: ThreadStatus, waits: () => readonly Interaction[]): boolean {
  if (status !== 'waiting' && status !== 'awaiting_hitl') return false;
  return waits().some((wait) => HUMAN_INTERACTIONS.includes(wait.kind));
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
      if (!latest) return this.index.insert(row);
      const newest = { ...row, status: latest.status, agent: latest.agent };
      return this.index.insert(newest, latest.personWaits, latest.waits);
    });
    this.chain = written.catch(() => {});
    return written;
  }

  /** `waits` gives the thread's open waits, read now: the rows the inbox lists beside this status. */
  status(id: string, status: ThreadStatus, agent: string, waits: () => readonly Interaction[] = () => []): void {
    const queued = this.waiting !== null;
    const open = waits();
    this.waiting = { status, agent, personWaits: waitsOnPerson(status, () => open), waits: waitingFor(open) };
    if (queued) return;
    this.chain = this.chain
      .then(() => {
        const latest = this.take();
        if (!latest) return undefined;
        return this.index.setStatus(id, latest.status, latest.agent, latest.personWaits, latest.waits);
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
