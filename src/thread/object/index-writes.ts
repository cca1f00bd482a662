/**
 * The thread's writes to the D1 index (THR-1), through a durable outbox in its own SQLite
 * (storage/index-outbox-rows.ts). The thread's row is recorded in the transaction that creates the
 * thread, and each status in the same synchronous stretch as the status itself (the object commits
 * both together: no await between them), so what the index has to learn is never lost with the
 * instance. Sending is off the request's and the turn's path: `POST /api/threads` answers once the
 * thread's own storage holds it.
 *
 * Sends go one at a time, in order; a status recorded while one is under way waits, and only the
 * newest is sent (a turn that ends before its `running` reached the index costs one write, not two,
 * and the index never moves backwards). A status carries the thread's open waits as they were at that
 * change, and whether a person's answer is among them (`?status=waiting` lists those threads).
 *
 * A failed send is tried again from the object's alarm, with backoff (index-refusal.ts); the alarm
 * is armed as every part of the object arms it: no later than what is due, never pushing back an
 * earlier time. A new thread arms it before its first send, so an instance that dies between the
 * 201 and the write leaves the alarm to make it. A refusal for good stops the tries: the thread
 * shows it as `index_error` and the refusal is logged; the next status change tries once more.
 */
import type { Interaction, ThreadStatus } from '../../spec/index.js';
import { HUMAN_INTERACTIONS } from '../../spec/internal.js';
import type { IndexedThread, IndexedWait, ThreadIndex } from '../bindings/index.js';
import type { IndexOutbox } from '../storage/index.js';
import { INDEX_ERROR_KEY, refusedForGood, retryDelayMs } from './index-refusal.js';
import { waitingFor } from './thread-details.js';

export interface StatusChange {
  id: string;
  status: ThreadStatus;
  agent: string;
  personWaits: boolean;
  waits: IndexedWait[];
}

/** Where the refusal is marked: the thread's meta table. */
export interface RefusalMarks {
  get<T>(key: string): T | null;
  set(key: string, value: unknown): void;
}

/** Whether a thread in `status` with these open waits waits on a person (or a client acting for one). */
export function waitsOnPerson(status: ThreadStatus, waits: () => readonly Interaction[]): boolean {
  if (status !== 'waiting' && status !== 'awaiting_hitl') return false;
  return waits().some((wait) => HUMAN_INTERACTIONS.includes(wait.kind));
}

export class IndexWrites {
  private chain: Promise<void> = Promise.resolve();
  /** A send is queued behind the one under way: another would find nothing newer to send. */
  private queued = false;
  /** A send is under way. */
  private sending = false;

  constructor(
    private readonly index: ThreadIndex,
    private readonly ctx: DurableObjectState,
    private readonly logError: (message: string) => void,
    private readonly outbox: IndexOutbox<StatusChange>,
    private readonly marks: RefusalMarks,
  ) {}

  /** Records the thread's row: call inside the transaction that creates the thread. */
  recordRow(row: IndexedThread): void {
    this.outbox.recordRow(row);
  }

  /**
   * After the creation's transaction: the alarm is armed for a retry, then the row is sent. The
   * alarm makes the send even if this instance dies first. A thread whose first turn starts at once
   * (its alarm is due now) sends its row with the turn's first status instead: one write, not two,
   * and a listing never shows it idle with a turn under way.
   */
  async created(turnStarts = false): Promise<void> {
    await this.armFor(Date.now() + retryDelayMs(1));
    if (!turnStarts) this.send();
  }

  /** `waits` gives the thread's open waits, read now: the rows the inbox lists beside this status. */
  status(id: string, status: ThreadStatus, agent: string, waits: () => readonly Interaction[] = () => []): void {
    const open = waits();
    const personWaits = waitsOnPerson(status, () => open);
    this.outbox.recordChange({ id, status, agent, personWaits, waits: waitingFor(open) });
    this.send();
  }

  /**
   * From the alarm: sends what a failed try (or an instance that died) left. Not awaited: a slow D1
   * never holds up the turn the alarm runs; a failure arms the alarm again itself. A new thread's
   * row not tried yet waits when the alarm starts a turn (`turnStarts`): its first status sends it.
   */
  retry(turnStarts = false): void {
    if (this.sending) return;
    const entry = this.outbox.pending();
    if (!entry || entry.refused !== null) return;
    if (turnStarts && entry.row !== null && entry.attempts === 0) return;
    this.send();
  }

  /** From the alarm's end: the alarm comes back when a failed send is due again. */
  async arm(): Promise<void> {
    const entry = this.outbox.pending();
    if (entry && entry.refused === null && entry.nextAt !== null) await this.armFor(entry.nextAt);
  }

  /** Resolves once every send asked for so far is done (or has failed and been logged). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** After the storage was erased. */
  forget(): void {
    this.outbox.forget();
  }

  private send(): void {
    if (this.queued) return;
    this.queued = true;
    this.chain = this.chain
      .then(async () => {
        this.queued = false;
        this.sending = true;
        await this.attempt();
      })
      .catch((error) => this.logError(`thread index write failed: ${(error as Error).message}`))
      .finally(() => {
        this.sending = false;
      });
    this.ctx.waitUntil(this.chain);
  }

  private async attempt(): Promise<void> {
    const entry = this.outbox.pending();
    if (!entry || entry.refused !== null) return;
    const { row, change } = entry;
    const id = row?.id ?? change?.id ?? '';
    try {
      if (row) {
        const newest = change ? { ...row, status: change.status, agent: change.agent } : row;
        await this.index.insert(newest, change?.personWaits ?? false, change?.waits ?? []);
      } else if (change) {
        await this.index.setStatus(change.id, change.status, change.agent, change.personWaits, change.waits);
      }
    } catch (error) {
      await this.failed(id, entry.attempts + 1, error);
      return;
    }
    this.outbox.sent(entry.version);
    if (this.marks.get(INDEX_ERROR_KEY) !== null) this.marks.set(INDEX_ERROR_KEY, null);
  }

  private async failed(id: string, attempts: number, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (refusedForGood(error)) {
      this.outbox.refuse(message);
      this.marks.set(INDEX_ERROR_KEY, message);
      this.logError(`thread index refused thread ${id} for good (not retried; listings miss it): ${message}`);
      return;
    }
    const delay = retryDelayMs(attempts);
    const due = Date.now() + delay;
    this.outbox.failed(attempts, due);
    this.logError(`thread index write failed for ${id} (attempt ${attempts}, next in ${delay} ms): ${message}`);
    await this.armFor(due);
  }

  /** No later than `due`, never pushing back an earlier alarm (a turn's, an effect's, a schedule's). */
  private async armFor(due: number): Promise<void> {
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > due) await this.ctx.storage.setAlarm(due);
  }
}
