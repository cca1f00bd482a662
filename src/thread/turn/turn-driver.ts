/**
 * Drives a thread's agent loop from its Durable Object alarm (THR-3). A turn always runs inside the
 * alarm handler; while it runs, a safety alarm stays armed two seconds ahead, so an object restarted
 * mid-turn (a crash, a deploy) is woken again within two seconds, with no request needed, and the
 * loop resumes from the last persisted step. While the turn is alive that alarm only re-arms itself:
 * about one alarm per two seconds of a long step, and no write at all for steps shorter than one.
 */

import { needsTurn, type TurnOutcome } from '../../engine/conversation/index.js';
import { egressPolicy } from '../../engine/egress/index.js';
import { TurnInterrupted } from '../../engine/execute/index.js';
import { ThreadFiles } from '../../engine/files/index.js';
import type { FileStore, FrameSink, ThreadHost } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { NO_SPAN, type Span, withSpan } from '../../engine/tracing/index.js';
import { runTurn } from '../../engine/turn/index.js';
import { resolveProvider } from '../../providers/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { SqliteThreadStore, ThreadMeta } from '../storage/index.js';
import type { BusyInterrupts, InterruptMode } from './busy-interrupts.js';
import { turnHeld } from './turn-hold.js';
import type { ThreadTraces } from './turn-traces.js';

/**
 * How far ahead the safety alarm is kept while a turn runs: the longest a turn interrupted by a
 * restart waits to resume. Re-arming costs a storage write, so it happens once half has passed.
 */
const SAFETY_ALARM_MS = 2_000;

export interface TurnDriverHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  store(): SqliteThreadStore;
  /** The thread's files in R2, under its storage quota (ATT-6). */
  files(): FileStore;
  /** The same files, whose writes record no file history: a rollback puts history back through them. */
  unrecordedFiles?(): FileStore;
  emit: FrameSink;
  /** The thread's variables and the scrubber of its secrets (EXE-8). */
  readonly variables: ThreadVariables;
  turnStarted(): void;
  /** After each runTurn: a child reports each session's end to its parent (SUB-4 implicit). */
  sessionEnded(outcome: TurnOutcome): void;
  turnEnded(outcome: TurnOutcome): void;
  /** What each turn borrows from the thread (children, the parent, programs, MCP tools), handed down as it is. */
  readonly thread: ThreadHost;
  /**
   * Between two turns of one run (a handoff, messages queued as a turn ended): the thread's due
   * effects run here, so a chain of turns does not hold them back until it ends.
   */
  betweenTurns?(): Promise<void>;
  /** The turn is still running (each time the safety alarm is re-armed): its turn slot is renewed (IDN-5). */
  turnAlive?(): void;
  /** Where each turn began and the interrupts asked of it, with its file undo journal (on_busy). */
  readonly interrupts?: BusyInterrupts;
  /** The thread's status before a turn starts: whether it continues an open turn. */
  readonly meta?: ThreadMeta;
  /** The thread's traces: each turn is a span, stored and sent when it ends (TRACE-1). */
  readonly traces?: ThreadTraces;
}

interface RunningTurn {
  /** Fires on a stop or an interrupt: the turn ends at its next safe point. */
  controller: AbortController;
  /** Fires on a stop only: cuts a running call too. */
  tools: AbortController;
  done: Promise<void>;
}

export class TurnDriver {
  private turn: RunningTurn | null = null;
  private safetyAlarmAt = 0;

  constructor(private readonly host: TurnDriverHost) {}

  get busy(): boolean {
    return this.turn !== null;
  }

  /**
   * When the object starts: a turn that was running when the previous instance died resumes at
   * once, instead of at its safety alarm, if a request woke the object first.
   */
  async resumeInterrupted(): Promise<void> {
    await this.host.ctx.storage.setAlarm(Date.now());
  }

  /** Arms the alarm that runs the loop, if there is work and no turn is running. */
  async wake(): Promise<void> {
    if (!this.startsTurn()) return;
    await this.host.ctx.storage.setAlarm(Date.now());
  }

  /** Whether the loop's next run starts a turn: there is work, and no turn is running. */
  startsTurn(): boolean {
    return this.turn === null && this.hasWork();
  }

  async onAlarm(): Promise<void> {
    if (this.turn) {
      this.safetyAlarmAt = 0;
      this.armSafetyAlarm();
      return;
    }
    if (this.hasWork()) await this.run();
  }

  /** Aborts the running turn, if any, and waits until it has persisted its last results. */
  async abort(reason: string): Promise<void> {
    const turn = this.turn;
    if (!turn) return;
    turn.tools.abort(new Error(reason));
    turn.controller.abort(new Error(reason));
    await turn.done;
  }

  /**
   * A message with `on_busy` interrupt or rollback: a running turn is asked to stop at its next safe
   * point (a running call finishes first) and the interrupt is carried out there; a turn waiting for
   * an answer or holding calls has it carried out now. Either way the queued message runs next.
   */
  async interrupt(mode: InterruptMode): Promise<void> {
    const { interrupts } = this.host;
    if (!interrupts) return;
    interrupts.request(mode);
    if (this.turn) this.turn.controller.abort(new TurnInterrupted());
    else await interrupts.settle(this.settleDeps());
  }

  private settleDeps() {
    const { host } = this;
    return {
      store: host.store(),
      emit: host.emit,
      files: () => host.unrecordedFiles?.() ?? host.files(),
      logError: host.variables.logError,
    };
  }

  /**
   * Aborts the running turn without waiting for it: for a call of that very turn (state.terminate),
   * which the turn waits for in its turn.
   */
  abortNow(reason: string): void {
    this.turn?.tools.abort(new Error(reason));
    this.turn?.controller.abort(new Error(reason));
  }

  private hasWork(): boolean {
    const store = this.host.store();
    // A terminated thread never runs again.
    if (typeof store.info.terminatedAt === 'number') return false;
    const log = store.messages();
    // The log, in memory, before the queue, which is a query.
    return (needsTurn(log) && !turnHeld(this.host.meta, log)) || store.hasQueued();
  }

  private armSafetyAlarm(): void {
    const now = Date.now();
    if (this.safetyAlarmAt - now > SAFETY_ALARM_MS / 2) return;
    this.safetyAlarmAt = now + SAFETY_ALARM_MS;
    void this.host.ctx.storage.setAlarm(this.safetyAlarmAt);
    this.host.turnAlive?.();
  }

  private async run(): Promise<void> {
    const { host } = this;
    const { registry, env } = host;
    let controller = new AbortController();
    const tools = new AbortController();
    let finished = () => {};
    const turn: RunningTurn = { controller, tools, done: new Promise((resolve) => (finished = resolve)) };
    this.turn = turn;
    const status = host.meta?.status() ?? 'idle';
    const store = host.store();
    let outcome: TurnOutcome = { kind: 'stopped' };
    let span: Span = NO_SPAN;
    host.turnStarted();
    this.armSafetyAlarm();
    try {
      // Opened before the turn: the live views below read what it opened.
      await host.variables.open();
      // EXE-8: what tools write to files is scrubbed like everything else the thread keeps.
      // The live scrubber: a secret stored mid-turn (`state.setEnv`) is hidden from then on.
      // on_busy rollback: each path's first change in a turn records what it held.
      const written = host.interrupts ? host.interrupts.undo.journaled(host.files()) : host.files();
      const files = new ThreadFiles(written, host.variables.liveScrubber);
      // Throws on a malformed entry: the turn fails with a message naming it.
      const egress = egressPolicy(env.EGRESS_ALLOW_HOSTS ?? '');
      let more = false;
      let first = true;
      do {
        // An interrupt asked before a restart is carried out before anything runs.
        await host.interrupts?.settle(this.settleDeps());
        await host.interrupts?.begin(store.messages(), first ? status : 'idle');
        first = false;
        // Resolved per turn: a handoff (SUB-2) gives the thread to another agent between turns.
        const agent = registry.agent(store.info.agentId);
        if (!agent) throw new Error(`agent "${store.info.agentId}" is no longer defined`);
        span = host.traces?.startTurn(agent.name, store) ?? NO_SPAN;
        const traced = span;
        outcome = await withSpan(traced, () =>
          runTurn({
            store,
            files,
            registry,
            agent,
            provider: (model) => resolveProvider(model, (name) => registry.model(name), env),
            emit: host.emit,
            signal: controller.signal,
            toolSignal: tools.signal,
            scrub: host.variables.liveScrubber.text,
            withoutSecretStart: host.variables.liveScrubber.withoutSecretStart,
            variables: host.variables.live,
            onProgress: () => this.armSafetyAlarm(),
            host: host.thread,
            egress,
          }),
        );
        host.traces?.endTurn(span, outcome, store);
        host.sessionEnded(outcome);
        if (!tools.signal.aborted && host.interrupts?.pending()) {
          // on_busy: the turn stopped at a safe point; the interrupt is carried out and the message runs.
          await host.interrupts.settle(this.settleDeps());
          controller = new AbortController();
          turn.controller = controller;
          more = this.hasWork();
          if (more) await host.betweenTurns?.();
          continue;
        }
        await host.interrupts?.ended(store);
        more =
          outcome.kind === 'done' && !controller.signal.aborted && (outcome.reason === 'handoff' || store.hasQueued());
        // Between two turns of one run, outside both: the effects due by now run before the next starts.
        if (more) await host.betweenTurns?.();
      } while (more);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      outcome = { kind: 'failed', message: host.variables.scrubber.text(`internal error: ${failure.message}`) };
      host.variables.logError(`turn failed in thread ${store.info.id}: ${failure.stack ?? failure.message}`);
      host.traces?.endTurn(span, outcome, store);
      host.sessionEnded(outcome);
    }
    // The turn counts as running until the alarm is gone: a message arriving meanwhile is queued.
    await host.ctx.storage.deleteAlarm();
    this.safetyAlarmAt = 0;
    this.turn = null;
    finished();
    host.turnEnded(outcome);
    // Messages that arrived while the turn was finishing start the next one.
    if (store.hasQueued()) await this.wake();
  }
}
