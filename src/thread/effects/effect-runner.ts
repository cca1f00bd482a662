/**
 * Runs a thread's due effects from its alarm (the Effects chapter: "MUST enqueue effect execution
 * asynchronously"). Each run is claimed (marked running) before its handler starts, so a run is
 * started at most once per schedule; one found still running after a restart is run again only when
 * its effect is idempotent, else recorded as failed, "interrupted". A handler is application code:
 * it gets the thread at rest (`state.execution` null) under an access gate built from the thread's
 * permission rules (a deny or an ask refuses, what no rule covers goes ahead), every request passes
 * the egress policy, its time is bounded (the state is fenced and the run failed when it is up), and
 * whatever it throws is recorded scrubbed of the thread's secrets, never thrown out of the alarm.
 *
 * Effects never run while a turn runs: the alarm that runs a turn runs the due effects before it
 * starts, after it ends and between two turns of one run (a handoff), so an effect due mid-turn waits
 * for that turn's end (a turn is bounded by its steps and its tools' timeouts).
 */
import { egressPolicy, runInToolCall } from '../../engine/egress/index.js';
import { type Fence, fencedState } from '../../engine/execute/index.js';
import { ThreadFiles } from '../../engine/files/index.js';
import { restingState } from '../../engine/guards/index.js';
import type { FileStore, FrameSink, ThreadHost } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { effectArgsProblem } from '../../engine/state/index.js';
import { NO_SPAN, type Span, spanNames, type Tracer, withSpan } from '../../engine/tracing/index.js';
import type { EffectDefinition, ThreadState } from '../../spec/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { EffectRow, EffectRows, SqliteThreadStore } from '../storage/index.js';
import { armAlarmFor } from './effect-queue.js';

/** How many effects one alarm runs at most; the rest run at the next one, set at once. */
const RUNS_PER_ALARM = 25;
/** How long one alarm spends on effects before leaving the rest to the next one. */
const ALARM_BUDGET_MS = 60_000;
/** An idempotent effect interrupted this many times is not run again. */
const MAX_ATTEMPTS = 3;
/** How much of an error is kept. */
const MAX_ERROR_CHARS = 2_000;

export interface EffectRunnerHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  readonly variables: ThreadVariables;
  rows(): EffectRows;
  store(): SqliteThreadStore;
  files(): FileStore;
  emit: FrameSink;
  /** What the effect's state borrows from the thread: waking the loop, children, the parent. */
  thread(): ThreadHost;
  /** The thread's traces: each run is a span of its own trace, stored when the runs are over (TRACE-1). */
  traces?: { tracer(): Tracer | null; flush(): void };
}

/** An error's message, whatever was thrown: a getter that throws is not allowed to escape. */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
    return String(error);
  } catch {
    return 'an error whose message could not be read';
  }
}

/** The alarm set while a handler runs, and the one it replaced, put back once the runs are over. */
interface SafetyAlarm {
  at: number;
  replaced: number | null;
}

export class EffectRunner {
  /** Runs under way in this instance: a running row not among them was left by one that died. */
  private readonly running = new Set<string>();
  private safety: SafetyAlarm | null = null;

  constructor(private readonly host: EffectRunnerHost) {}

  /** Runs the effects due now, in order; never throws for what a handler does. */
  async runDue(): Promise<void> {
    const rows = this.host.rows();
    this.recoverInterrupted(rows);
    const started = Date.now();
    for (let count = 0; count < RUNS_PER_ALARM && Date.now() - started < ALARM_BUDGET_MS; count++) {
      const row = rows.claimDue(Date.now());
      if (!row) break;
      this.running.add(row.id);
      const span =
        this.host.traces?.tracer()?.start(spanNames.effect(row.name), null, 'internal', {
          'standard_agents.effect.id': row.id,
        }) ?? NO_SPAN;
      try {
        await withSpan(span, () => this.runOne(row, span));
      } finally {
        this.running.delete(row.id);
        span.end();
      }
    }
    this.host.traces?.flush();
    rows.prune();
    await this.releaseSafetyAlarm();
  }

  /**
   * While a handler runs, the alarm is kept no later than its timeout: an instance that dies in the
   * middle is woken again, and the run recorded. Only one is kept for all the runs of an alarm.
   */
  private async armSafetyAlarm(timeout: number): Promise<void> {
    const { storage } = this.host.ctx;
    const at = Date.now() + timeout + 1_000;
    const current = await storage.getAlarm();
    if (current !== null && current <= at) return;
    this.safety = { at, replaced: this.safety ? this.safety.replaced : current };
    await storage.setAlarm(at);
  }

  /** The alarm the runs replaced comes back, unless something else has set it since (a woken turn). */
  private async releaseSafetyAlarm(): Promise<void> {
    const safety = this.safety;
    this.safety = null;
    const { storage } = this.host.ctx;
    if (!safety || (await storage.getAlarm()) !== safety.at) return;
    if (safety.replaced === null) await storage.deleteAlarm();
    else await storage.setAlarm(safety.replaced);
  }

  /** Sets the alarm for the soonest waiting effect, unless something earlier holds it. */
  async arm(): Promise<void> {
    const due = this.host.rows().nextDue();
    if (due !== null) await armAlarmFor(this.host.ctx, due);
  }

  /** Runs left running by an instance that died: again if idempotent, else failed. */
  private recoverInterrupted(rows: EffectRows): void {
    for (const row of rows.withStatus('running')) {
      if (this.running.has(row.id)) continue;
      const definition = this.host.registry.effects.get(row.name);
      if (definition?.idempotent && row.attempts < MAX_ATTEMPTS) {
        rows.requeue(row.id);
        continue;
      }
      const why = definition?.idempotent
        ? `interrupted by a restart ${row.attempts} times; not run again`
        : 'interrupted: the thread restarted while it ran, and the effect is not declared idempotent, so it is not run again';
      rows.finish(row.id, 'failed', why, Date.now());
    }
  }

  private fail(row: EffectRow, why: string, span: Span = NO_SPAN): void {
    const clean = this.host.variables.scrubber.text(why).slice(0, MAX_ERROR_CHARS);
    span.fail(clean, 'effect_failed');
    this.host.rows().finish(row.id, 'failed', clean, Date.now());
    this.host.variables.logError(`effect "${row.name}" (${row.id}) failed in thread ${this.threadId()}: ${clean}`);
  }

  private threadId(): string {
    return this.host.store().info.id;
  }

  private async runOne(row: EffectRow, span: Span): Promise<void> {
    const definition = this.host.registry.effects.get(row.name);
    if (!definition) return this.fail(row, `no effect named "${row.name}" is defined any more`, span);
    // Checked again: the effect's schema may have changed since the run was scheduled.
    const problem = effectArgsProblem(row.name, definition, row.args);
    if (problem) return this.fail(row, problem, span);
    const fence: Fence = { ended: null };
    await this.armSafetyAlarm(definition.timeout);
    try {
      const state = fencedState(await this.stateAtRest(row.name), fence, `effect:${row.name}`);
      await this.bounded(row.name, definition, state, row.args, fence);
      this.host.rows().finish(row.id, 'completed', null, Date.now());
      span.ok();
    } catch (error) {
      this.fail(row, messageOf(error), span);
    } finally {
      fence.ended ??= 'the effect has finished';
    }
  }

  /** The handler, run as application code, within its timeout. */
  private bounded(
    name: string,
    definition: EffectDefinition,
    state: ThreadState,
    stored: Record<string, unknown>,
    fence: Fence,
  ): Promise<void> {
    const args = definition.args ? definition.args.parse(stored) : stored;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        fence.ended = `timed out after ${definition.timeout} ms`;
        reject(new Error(`the effect timed out after ${definition.timeout} ms and was stopped`));
      }, definition.timeout);
    });
    const network = { tool: `effect:${name}`, fetch: state.fetch.bind(state) };
    const run = runInToolCall(network, () => Promise.resolve().then(() => definition.handler(state, args)));
    return Promise.race([run, expired]).finally(() => clearTimeout(timer));
  }

  /** The thread at rest, as an effect sees it: no running call, its rules and egress policy applied. */
  private async stateAtRest(name: string): Promise<ThreadState> {
    const { registry, env } = this.host;
    // Opened first: the live views below read what it opened.
    await this.host.variables.open();
    const store = this.host.store();
    return restingState(
      {
        store,
        // Live: a value the effect stores with `setEnv` is seen, and a secret hidden, at once.
        files: new ThreadFiles(this.host.files(), this.host.variables.liveScrubber),
        variables: this.host.variables.live,
        emit: this.host.emit,
        host: this.host.thread(),
        egress: egressPolicy(env.EGRESS_ALLOW_HOSTS ?? ''),
        registry,
      },
      `effect:${name}`,
    );
  }
}
