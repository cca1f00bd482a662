/**
 * What a message posted with `on_busy: "interrupt"` or `"rollback"` does to the turn it finds
 * (the turn it interrupts may be running, waiting for an answer, or holding calls for the round
 * limit). Kept in the thread's meta table, so a request and the turn's start outlive an eviction:
 *
 * - where the open turn began in the log (the seq before its first message), set when a turn starts
 *   fresh and kept while it waits or holds calls, cleared when it is over;
 * - the interrupt asked for and not yet carried out (`rollback` wins over `interrupt`).
 *
 * Carrying one out (`settle`): every call still pending is answered as interrupted (an open wait
 * too), never run; for a rollback, every message of the turn is removed (`message_deleted`) and its
 * files are put back from the undo journal.
 */
import { cancelPendingCalls, hasHeldCalls } from '../../engine/conversation/index.js';
import { INTERRUPTED_MESSAGE } from '../../engine/execute/index.js';
import type { FileStore, FrameSink } from '../../engine/ports/index.js';
import type { Message, ThreadStatus } from '../../spec/index.js';
import type { FileUndoJournal } from '../files/index.js';
import type { SqliteThreadStore, ThreadMeta } from '../storage/index.js';

export type InterruptMode = 'interrupt' | 'rollback';

const TURN_START_KEY = 'turn_start_seq';
const INTERRUPT_KEY = 'busy_interrupt';

/** Statuses that continue an open turn: a restart mid-turn, an answered wait. */
const CONTINUING: readonly ThreadStatus[] = ['running', 'waiting', 'awaiting_hitl'];

/** The seq just before a turn's first message: its trailing user messages (posted while idle) are its own. */
export function turnStartSeq(log: readonly Message[]): number {
  let at = log.length - 1;
  while (at >= 0 && log[at]?.role === 'user') at--;
  return log[at]?.seq ?? 0;
}

/** Where the turn under way began (the seq before its first message), or null between turns. */
export function runningTurnStart(meta: ThreadMeta): number | null {
  return meta.get<number>(TURN_START_KEY);
}

export interface SettleDeps {
  store: SqliteThreadStore;
  emit: FrameSink;
  /** The thread's counted files: a rollback writes its files back through them. */
  files(): FileStore;
  logError(message: string): void;
}

export class BusyInterrupts {
  constructor(
    private readonly meta: ThreadMeta,
    readonly undo: FileUndoJournal,
  ) {}

  /**
   * Before each turn: a fresh turn notes where it begins (and drops what a turn that never ended
   * cleanly left in the journal); a turn that continues keeps its start.
   */
  async begin(log: readonly Message[], status: ThreadStatus): Promise<void> {
    const start = this.meta.get<number>(TURN_START_KEY);
    if (start !== null && CONTINUING.includes(status)) return;
    if (start !== null) await this.undo.clear();
    this.meta.set(TURN_START_KEY, turnStartSeq(log));
  }

  /** A turn ended: over unless it waits for an answer or holds calls (then it may still be interrupted). */
  async ended(store: SqliteThreadStore): Promise<void> {
    if (store.openInteractions().length > 0 || hasHeldCalls(store.messages())) return;
    this.meta.set(TURN_START_KEY, null);
    await this.undo.clear();
  }

  /** Notes an interrupt to carry out at the turn's next safe point; a rollback asked once stays a rollback. */
  request(mode: InterruptMode): void {
    if (this.pending() === 'rollback') return;
    this.meta.set(INTERRUPT_KEY, mode);
  }

  pending(): InterruptMode | null {
    return this.meta.get<InterruptMode>(INTERRUPT_KEY);
  }

  /** Carries out the interrupt asked for, once the turn has stopped (or was not running). */
  async settle(deps: SettleDeps): Promise<void> {
    const mode = this.pending();
    if (!mode) return;
    const { store, emit } = deps;
    cancelPendingCalls(store, emit, INTERRUPTED_MESSAGE);
    if (mode === 'rollback') await this.rollBack(deps);
    this.meta.set(TURN_START_KEY, null);
    await this.undo.clear();
    this.meta.set(INTERRUPT_KEY, null);
  }

  private async rollBack(deps: SettleDeps): Promise<void> {
    const { store, emit } = deps;
    const start = this.meta.get<number>(TURN_START_KEY);
    if (start !== null) {
      const doomed = store
        .messages()
        .filter((message) => message.seq > start)
        .map((message) => message.id);
      if (doomed.length > 0) {
        store.deleteMessages(doomed);
        emit({ type: 'message_deleted', message_ids: doomed });
      }
    }
    const failed = await this.undo.restore(deps.files());
    if (failed.length > 0) deps.logError(`rollback could not put back ${failed.join(', ')}`);
  }
}
