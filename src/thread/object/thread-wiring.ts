/**
 * What a Thread Durable Object is made of, and how its parts are wired together (THR-1): its SQLite
 * tables and stream frames, the D1 index and the ordered writes to it, the variables with their
 * scrubber, the reports to a parent, the sandboxed programs, the MCP client and the turn driver,
 * the scheduled effects and their runner,
 * made once per instance; the message store and the files, opened on first use and dropped when the
 * thread is erased; the owner check every RPC passes; and the views of the object the other rooms
 * borrow (the answer desk, the ending host). ThreadObject (thread-object.ts) is the surface built on
 * this: its RPC methods, WebSocket and alarm, and what it does when a turn starts or ends, which the
 * driver wired here calls.
 */
import { DurableObject } from 'cloudflare:workers';
import type { TurnOutcome } from '../../engine/conversation/index.js';
import type { Frame } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { CoalescedTextFrames } from '../../engine/step/index.js';
import type { ThreadStatus } from '../../spec/index.js';
import { type Principal, type ThreadAction, threadAccess } from '../access/index.js';
import {
  fail,
  forbidden,
  notFound,
  R2FileStore,
  type RpcResult,
  type RuntimeEnv,
  type ThreadDetails,
  ThreadIndex,
  UsageIndex,
} from '../bindings/index.js';
import { ParentReporter } from '../children/index.js';
import { DurableEffectQueue, EffectRunner } from '../effects/index.js';
import { CountedFileStore, FileHistory, FileUndoJournal, type StorageUsage } from '../files/index.js';
import type { AnswerDesk } from '../inbox/index.js';
import { ThreadMcp } from '../mcp/index.js';
import { ThreadPrograms } from '../sandbox/index.js';
import type { FiringDesk } from '../schedules/index.js';
import { ThreadVariables } from '../secrets/index.js';
import {
  EffectRows,
  FrameLog,
  IndexOutboxRows,
  ownershipOf,
  ScheduleRows,
  SpanRows,
  SqliteThreadStore,
  ThreadMeta,
  type ThreadRecord,
} from '../storage/index.js';
import { acquireTurnSlot, leaseHolder, TurnLease } from '../tenancy/index.js';
import { BusyInterrupts, runningTurnStart, ThreadTraces, TurnDriver } from '../turn/index.js';
import { IndexWrites, type StatusChange } from './index-writes.js';
import { threadDetails } from './thread-details.js';
import type { EndingHost } from './thread-ending.js';
import { DurableThreadHost } from './thread-host.js';
import { traceAttributes } from './trace-attributes.js';
import { UsageReports } from './usage-reports.js';

export abstract class ThreadWiring extends DurableObject<RuntimeEnv> {
  protected frames: FrameLog;
  /** Every frame passes here on its way to the log: model text sent at most once per interval (THR-9). */
  private readonly coalesced: CoalescedTextFrames;
  private storeCache: SqliteThreadStore | null = null;
  private filesCache: CountedFileStore | null = null;
  protected readonly metaTable: ThreadMeta;
  /** The D1 thread index (THR-1): one per object. */
  protected readonly index: ThreadIndex;
  protected readonly indexWrites: IndexWrites;
  /** The thread's model steps, reported to the D1 usage index after each turn (USE-2). */
  protected readonly usageReports: UsageReports;
  protected readonly reporter: ParentReporter;
  /** The thread's variables and the scrubber every stored or emitted byte passes through (EXE-8). */
  protected readonly variables: ThreadVariables;
  /** The sandboxed programs of this thread's calls (CODE-1). */
  protected readonly programs: ThreadPrograms;
  /** The thread's MCP client (LOCK-4). */
  protected readonly mcp: ThreadMcp;
  protected readonly driver: TurnDriver;
  /** The thread's turn slot among its tenant's, renewed while a turn runs (IDN-5). */
  protected readonly lease: TurnLease;
  /** The rows of the thread's scheduled effects, made again when the thread is erased. */
  protected effectRows: EffectRows;
  /** What turns, effects and endpoints borrow from the thread: children, the parent, programs, effects. */
  protected readonly threadHost: DurableThreadHost;
  /** Runs the thread's due effects from its alarm (the Effects chapter). */
  protected readonly effects: EffectRunner;
  /** The rows of the thread's schedules, made again when the thread is erased. */
  protected scheduleRows: ScheduleRows;
  /** The thread's finished spans, made again when the thread is erased (TRACE-5). */
  protected spanRows: SpanRows;
  /** The tracer of its turns and effects, and where their spans go (TRACE-1). */
  protected readonly traces: ThreadTraces;

  constructor(
    ctx: DurableObjectState,
    env: RuntimeEnv,
    protected readonly registry: Registry,
  ) {
    super(ctx, env);
    this.frames = new FrameLog(ctx);
    this.coalesced = new CoalescedTextFrames(
      (frame) => this.frames.append(frame, this.variables.scrubber.text),
      registry.limits.deltaFlushMs,
    );
    this.metaTable = new ThreadMeta(ctx.storage);
    this.index = new ThreadIndex(env.DB);
    this.variables = new ThreadVariables({ ctx, env, registry, info: () => this.record() });
    const outbox = new IndexOutboxRows<StatusChange>(ctx.storage);
    this.indexWrites = new IndexWrites(this.index, ctx, this.variables.logError, outbox, this.metaTable);
    const usage = { ctx, index: new UsageIndex(env.DB), meta: this.metaTable, record: () => this.record() };
    this.usageReports = new UsageReports({ ...usage, logError: this.variables.logError });
    this.reporter = new ParentReporter(ctx, env, this.metaTable, this.variables.logError);
    this.programs = new ThreadPrograms(ctx, env);
    this.mcp = new ThreadMcp({ ctx, env, registry, variables: this.variables, store: () => this.store() });
    this.lease = new TurnLease(env, ctx, () => leaseHolder(this.record()));
    this.effectRows = new EffectRows(ctx.storage);
    this.scheduleRows = new ScheduleRows(ctx.storage);
    this.spanRows = new SpanRows(ctx.storage);
    this.traces = new ThreadTraces({
      ctx,
      env,
      rows: () => this.spanRows,
      scrub: (text) => this.variables.liveScrubber.text(text),
      common: () => traceAttributes(this.record()),
    });
    const effectQueue = new DurableEffectQueue(
      ctx,
      registry,
      this.variables,
      () => this.effectRows,
      () => typeof this.record()?.terminatedAt === 'number',
    );
    this.threadHost = new DurableThreadHost(env, this.programs, this.mcp, () => this.answerDesk(), effectQueue);
    this.driver = new TurnDriver({
      ctx,
      env,
      registry,
      store: () => this.store(),
      files: () => this.files(),
      unrecordedFiles: () => this.files().unrecorded(),
      emit: this.emit,
      variables: this.variables,
      turnStarted: () => this.setStatus('running'),
      sessionEnded: (outcome) => this.reportOutcome(outcome),
      turnEnded: (outcome) => this.recordOutcome(outcome),
      turnAlive: () => this.lease.alive(),
      thread: this.threadHost,
      betweenTurns: () => this.effects.runDue(),
      meta: this.metaTable,
      traces: this.traces,
      // on_busy interrupt and rollback: the turn's start, the interrupt asked, the file undo journal.
      interrupts: new BusyInterrupts(
        this.metaTable,
        new FileUndoJournal(
          ctx.storage,
          env.FILES,
          () => this.store().info.id,
          () => this.files().history,
        ),
      ),
    });
    this.effects = new EffectRunner({
      ctx,
      env,
      registry,
      variables: this.variables,
      rows: () => this.effectRows,
      store: () => this.store(),
      files: () => this.files(),
      emit: this.emit,
      thread: () => this.threadHost,
      traces: this.traces,
    });
    ctx.blockConcurrencyWhile(async () => {
      this.metaTable.wake();
      // EXE-8: the secrets are known before any request or alarm can append anything.
      await this.variables.openAtWake();
      // THR-3: the status says a turn was running when the previous instance died.
      if (this.metaTable.get('status') === 'running') await this.driver.resumeInterrupted();
      // THR-1: what the thread index was not told when the previous instance died goes now.
      if (this.metaTable.record()) this.indexWrites.retry();
    });
    // Heartbeats answered without waking a hibernating object (THR-2).
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  // ---- what the driver tells the object: the surface decides what follows -------------------

  protected abstract setStatus(status: ThreadStatus, reason?: string): void;
  /** A session ended: a child tells its parent (SUB-7). */
  protected abstract reportOutcome(outcome: TurnOutcome): void;
  /** A turn ended: its outcome becomes the thread's status. */
  protected abstract recordOutcome(outcome: TurnOutcome): void;
  /** The thread terminates itself (state.terminate); `fromTurn` when a call of the running turn asks. */
  protected abstract terminateFrom(fromTurn: boolean): Promise<void>;

  // ---- state --------------------------------------------------------------------------------

  protected record(): ThreadRecord | null {
    return this.storeCache ? (this.storeCache.info as ThreadRecord) : this.metaTable.record();
  }

  /**
   * Runs `act` when `principal` may do `action` to the thread (THR-6, IDN-1, IDN-4). A thread it does
   * not see, another tenant's above all, gets the same 404 as one that does not exist, so nobody
   * learns which threads others own; one it sees but may not act on, a 403.
   */
  protected async asPrincipal<T>(
    principal: Principal,
    id: string,
    action: ThreadAction,
    act: (record: ThreadRecord) => RpcResult<T> | Promise<RpcResult<T>>,
  ): Promise<RpcResult<T>> {
    const record = this.record();
    const access = record ? threadAccess(ownershipOf(record), principal, action) : 'hidden';
    if (access === 'hidden' || !record) return fail(notFound(id));
    if (access === 'forbidden') return fail(forbidden(`the ${principal.role} role may not ${action} this thread`));
    return act(record);
  }

  protected store(): SqliteThreadStore {
    if (!this.storeCache) {
      const record = this.metaTable.record();
      if (!record) throw new Error('thread has not been created');
      this.storeCache = new SqliteThreadStore(this.ctx.storage, this.metaTable, record, () => this.variables.scrubber);
    }
    return this.storeCache;
  }

  /** The thread's files, under its storage quota (ATT-6): every write of the object passes here. */
  protected files(): CountedFileStore {
    if (!this.filesCache) {
      const record = this.metaTable.record();
      if (!record) throw new Error('thread has not been created');
      const r2 = new R2FileStore(this.env.FILES, record.id);
      const quota = this.registry.limits.threadStorageBytes;
      // FORK-5: every change records what its path held, for forks and rewinds.
      const history = new FileHistory({
        storage: this.ctx.storage,
        bucket: this.env.FILES,
        meta: this.metaTable,
        threadId: () => record.id,
        newestSeq: () => this.store().messages().at(-1)?.seq ?? 0,
        budgetBytes: this.registry.limits.fileHistoryBytes,
        // The running turn's records may be its undo journal's copies, needed by a rollback.
        keepAfter: () => runningTurnStart(this.metaTable),
      });
      this.filesCache = new CountedFileStore(r2, this.ctx.storage, this.metaTable, quota, history);
    }
    return this.filesCache;
  }

  protected emit = (frame: Frame): void => {
    this.coalesced.emit(frame);
  };

  protected details(record: ThreadRecord, storage: StorageUsage = this.files().usage()): ThreadDetails {
    const agentBudget = this.registry.agent(record.agentId)?.budget;
    return threadDetails(record, this.metaTable, this.store(), this.frames.lastSeq(), agentBudget, storage);
  }

  // ---- what other rooms borrow --------------------------------------------------------------

  protected answerDesk(): AnswerDesk {
    return {
      ctx: this.ctx,
      env: this.env,
      registry: this.registry,
      store: this.store(),
      emit: this.emit,
      driver: this.driver,
      variables: this.variables,
      terminate: (fromTurn) => this.terminateFrom(fromTurn),
    };
  }

  /** What the thread's schedules borrow: their rows, the inbox, the owner `schedule.fired` names. */
  protected scheduleDesk(): FiringDesk {
    return {
      ctx: this.ctx,
      env: this.env,
      registry: this.registry,
      rows: () => this.scheduleRows,
      store: () => this.store(),
      scrub: (text) => this.variables.scrubber.text(text),
      answers: () => this.answerDesk(),
      owner: () => {
        const record = this.record();
        const ownership = record ? ownershipOf(record) : null;
        return { tenant: ownership?.tenant ?? '', owner: ownership?.userId ?? '' };
      },
      admitTurn: async () => {
        const record = this.record();
        if (!record) return null;
        const { tenant, userId } = ownershipOf(record);
        const owner = { tenant, subject: userId ?? '', role: 'member' as const, via: 'thread' as const };
        const slot = await acquireTurnSlot(this.env, owner, record.id);
        return slot.ok ? null : slot.code;
      },
    };
  }

  protected ending(): EndingHost {
    return {
      desk: this.answerDesk(),
      index: this.index,
      indexWrites: this.indexWrites,
      setStatus: (status, reason) => this.setStatus(status, reason),
      erase: () => this.erase(),
    };
  }

  /** Drops all storage and leaves an empty object that answers "not found". */
  protected async erase(): Promise<void> {
    this.coalesced.drop();
    await this.ctx.storage.deleteAll();
    this.metaTable.forget();
    this.indexWrites.forget();
    this.storeCache = null;
    this.filesCache = null;
    this.variables.reset();
    this.frames = new FrameLog(this.ctx);
    // Pending effects went with the storage: a deleted thread runs none.
    this.effectRows = new EffectRows(this.ctx.storage);
    this.scheduleRows = new ScheduleRows(this.ctx.storage);
    this.spanRows = new SpanRows(this.ctx.storage);
  }
}
