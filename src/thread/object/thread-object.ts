/**
 * The Thread Durable Object (THR-1): one per thread, holding its message log, variables, key-value
 * store, queue and stream frames in SQLite, its files in R2, and its row in the D1 index. The agent
 * loop runs inside the alarm handler (THR-3): whatever started a turn, an eviction or restart is
 * followed by the alarm, which resumes from the last persisted step.
 */
import { DurableObject } from 'cloudflare:workers';
import type { TurnOutcome } from '../../engine/conversation/index.js';
import type { Frame } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { AttachmentRef, InteractionKind, ThreadStatus } from '../../spec/index.js';
import {
  type ChildDelivery,
  type ChildOutcome,
  type CreateThreadInput,
  type DeferredChildView,
  fail,
  type McpAuthorizationResult,
  type McpBrowserStart,
  type McpCallbackOutcome,
  type McpStartLink,
  type MessagePage,
  notFound,
  ok,
  type PostMessageAnswer,
  type PostMessageInput,
  R2FileStore,
  type RpcResult,
  type RuntimeEnv,
  type SpawnChildInput,
  type ThreadDetails,
  ThreadIndex,
  type ThreadRpc,
  type UploadedFile,
} from '../bindings/index.js';
import {
  bootDeferredChild,
  ParentReporter,
  receiveChildFiles,
  startChild,
  viewDeferredChild,
} from '../children/index.js';
import { CountedFileStore, type StorageUsage, storeUpload } from '../files/index.js';
import {
  type AnswerDesk,
  acceptMessage,
  answerFromChild,
  answerWait,
  messageFromChild,
  storeSecretAnswer,
} from '../inbox/index.js';
import { beginMcpAuthorization, completeMcpAuthorization, mcpStartLink, ThreadMcp } from '../mcp/index.js';
import { ThreadPrograms } from '../sandbox/index.js';
import { ThreadVariables } from '../secrets/index.js';
import { FrameLog, SqliteThreadStore, ThreadMeta, type ThreadRecord } from '../storage/index.js';
import { outcomeEffect, TurnDriver } from '../turn/index.js';
import { IndexWrites } from './index-writes.js';
import { writeNewThread } from './thread-creation.js';
import { threadDetails, withChildStatuses } from './thread-details.js';
import { deleteThread, type EndingHost, stopThread } from './thread-ending.js';
import { DurableThreadHost } from './thread-host.js';

/** The header the Worker uses to tell the object who opens a WebSocket. */
export const USER_HEADER = 'x-thread-user';

export class ThreadObject extends DurableObject<RuntimeEnv> implements ThreadRpc {
  private frames: FrameLog;
  private storeCache: SqliteThreadStore | null = null;
  private filesCache: CountedFileStore | null = null;
  private readonly driver: TurnDriver;

  constructor(
    ctx: DurableObjectState,
    env: RuntimeEnv,
    protected readonly registry: Registry,
  ) {
    super(ctx, env);
    this.frames = new FrameLog(ctx);
    this.metaTable = new ThreadMeta(ctx.storage);
    this.index = new ThreadIndex(env.DB);
    this.variables = new ThreadVariables({ ctx, env, registry, info: () => this.record() });
    this.indexWrites = new IndexWrites(this.index, ctx, this.variables.logError);
    this.reporter = new ParentReporter(ctx, env, this.metaTable, this.variables.logError);
    this.programs = new ThreadPrograms(ctx, env);
    this.mcp = new ThreadMcp({ ctx, env, registry, variables: this.variables, store: () => this.store() });
    this.driver = new TurnDriver({
      ctx,
      env,
      registry,
      store: () => this.store(),
      files: () => this.files(),
      emit: this.emit,
      variables: this.variables,
      turnStarted: () => this.setStatus('running'),
      sessionEnded: (outcome) => this.reportOutcome(outcome),
      turnEnded: (outcome) => this.recordOutcome(outcome),
      thread: new DurableThreadHost(env, this.programs, this.mcp, () => this.answerDesk()),
    });
    ctx.blockConcurrencyWhile(async () => {
      this.metaTable.wake();
      // EXE-8: the secrets are known before any request or alarm can append anything.
      await this.variables.openAtWake();
      // THR-3: the status says a turn was running when the previous instance died.
      if (this.metaTable.get('status') === 'running') await this.driver.resumeInterrupted();
    });
    // Heartbeats answered without waking a hibernating object (THR-2).
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  // ---- state --------------------------------------------------------------------------------

  private readonly metaTable: ThreadMeta;
  /** The D1 thread index (THR-1): one per object. */
  private readonly index: ThreadIndex;
  private readonly indexWrites: IndexWrites;
  private readonly reporter: ParentReporter;
  /** The thread's variables and the scrubber every stored or emitted byte passes through (EXE-8). */
  private readonly variables: ThreadVariables;
  /** The sandboxed programs of this thread's calls (CODE-1). */
  private readonly programs: ThreadPrograms;
  /** The thread's MCP client (LOCK-4). */
  private readonly mcp: ThreadMcp;

  private record(): ThreadRecord | null {
    return this.storeCache ? (this.storeCache.info as ThreadRecord) : this.metaTable.record();
  }

  /** The thread's record if it exists and belongs to `userId` (THR-6). */
  private owned(userId: string): ThreadRecord | null {
    const record = this.record();
    return record && record.userId === userId ? record : null;
  }

  /**
   * THR-6: runs `act` for the thread's owner; anyone else, or a thread that does not exist, gets the
   * same 404, so a key never learns which threads other keys own.
   */
  private async asOwner<T>(
    userId: string,
    id: string,
    act: (record: ThreadRecord) => RpcResult<T> | Promise<RpcResult<T>>,
  ): Promise<RpcResult<T>> {
    const record = this.owned(userId);
    return record ? act(record) : fail(notFound(id));
  }

  private store(): SqliteThreadStore {
    if (!this.storeCache) {
      const record = this.metaTable.record();
      if (!record) throw new Error('thread has not been created');
      this.storeCache = new SqliteThreadStore(this.ctx.storage, this.metaTable, record, () => this.variables.scrubber);
    }
    return this.storeCache;
  }

  /** The thread's files, under its storage quota (ATT-6): every write of the object passes here. */
  private files(): CountedFileStore {
    if (!this.filesCache) {
      const record = this.metaTable.record();
      if (!record) throw new Error('thread has not been created');
      const r2 = new R2FileStore(this.env.FILES, record.id);
      this.filesCache = new CountedFileStore(
        r2,
        this.ctx.storage,
        this.metaTable,
        this.registry.limits.threadStorageBytes,
      );
    }
    return this.filesCache;
  }

  private emit = (frame: Frame): void => {
    this.frames.append(frame, this.variables.scrubber.text);
  };

  private setStatus(status: ThreadStatus, reason?: string): void {
    this.metaTable.set('status', status);
    this.emit({ type: 'status', status, ...(reason ? { reason } : {}) });
    const { id, agentId } = this.store().info;
    this.indexWrites.status(id, status, agentId);
  }

  /** A child tells its parent how a session ended (SUB-7). */
  private reportOutcome(outcome: TurnOutcome): void {
    const record = this.record();
    if (record) this.reporter.report(record, outcome, this.store().messages());
  }

  private recordOutcome(outcome: TurnOutcome): void {
    const effect = outcomeEffect(outcome, this.store().openInteractions());
    this.metaTable.set('last_error', effect.error ? this.variables.scrubber.text(effect.error.message) : null);
    if (effect.error) this.emit({ type: 'error', ...effect.error });
    this.setStatus(effect.status, effect.reason);
  }

  private details(record: ThreadRecord, storage: StorageUsage = this.files().usage()): ThreadDetails {
    const agentBudget = this.registry.agent(record.agentId)?.budget;
    return threadDetails(record, this.metaTable, this.store(), this.frames.lastSeq(), agentBudget, storage);
  }

  // ---- RPC ----------------------------------------------------------------------------------

  async sandboxFetch(run: string, request: Request): Promise<Response> {
    return this.programs.fetch(run, request);
  }

  async create(input: CreateThreadInput): Promise<RpcResult<ThreadDetails>> {
    const created = await writeNewThread(
      {
        ctx: this.ctx,
        env: this.env,
        registry: this.registry,
        meta: this.metaTable,
        index: this.indexWrites,
        variables: this.variables,
        store: () => this.store(),
        started: async () => {
          for (const message of this.store().messages()) this.emit({ type: 'message', message });
          await this.driver.wake();
        },
        stop: () => this.driver.abort('the thread index refused the thread'),
        erase: () => this.erase(),
      },
      input,
    );
    if (!created.ok) return created;
    return ok(this.details(created.value));
  }

  /**
   * Creates a child thread of this one: its own Durable Object, owned by the same user, inheriting
   * this thread's variables except those the child declares scoped (VAR-4).
   */
  async spawnChild(userId: string, id: string, input: SpawnChildInput): Promise<RpcResult<ThreadDetails>> {
    return this.asOwner(userId, id, (record) => startChild(this.answerDesk(), record, input));
  }

  /** SUB-6: the deferred child request `requestId`, or 404. */
  async deferredChild(userId: string, id: string, requestId: string): Promise<RpcResult<DeferredChildView>> {
    return this.asOwner(userId, id, () => viewDeferredChild(this.store(), requestId));
  }

  /** SUB-6: stores the values and boots the deferred child; 400 while required values are missing. */
  async bootDeferredChild(
    userId: string,
    id: string,
    requestId: string,
    values: Record<string, string>,
  ): Promise<RpcResult<{ child_id: string }>> {
    return this.asOwner(userId, id, (record) => bootDeferredChild(this.answerDesk(), record, requestId, values));
  }

  /** A child started for one of this thread's tool calls finished (SUB-7): its outcome answers the call. */
  async childFinished(childId: string, toolCallId: string, outcome: ChildOutcome): Promise<ChildDelivery> {
    if (!this.record()) return 'parent_gone';
    await answerFromChild(this.answerDesk(), childId, toolCallId, outcome);
    return 'delivered';
  }

  /** A non-blocking child finished: its answer is queued here as a message (SUB-3, SUB-7). */
  async childMessage(childId: string, content: string): Promise<ChildDelivery> {
    if (!this.record()) return 'parent_gone';
    await messageFromChild(this.answerDesk(), childId, content);
    return 'delivered';
  }

  async describe(userId: string, id: string): Promise<RpcResult<ThreadDetails>> {
    return this.asOwner(userId, id, async (record) => {
      const details = this.details(record, await this.files().settledUsage());
      return ok(await withChildStatuses(details, this.index));
    });
  }

  /** A client's upload, streamed in and stored under the thread's quota (ATT-5, ATT-6). */
  async putFile(
    userId: string,
    id: string,
    file: UploadedFile,
    body: ReadableStream | null,
  ): Promise<RpcResult<AttachmentRef>> {
    return this.asOwner(userId, id, () => storeUpload(this.files(), file, body));
  }

  /** A child hands over the files it produced: copied here under this thread's quota (ATT-4, ATT-6). */
  async takeChildFiles(childId: string, paths: string[]): Promise<RpcResult<AttachmentRef[]>> {
    if (!this.record()) return fail(notFound(this.ctx.id.toString()));
    return receiveChildFiles(this.env.FILES, childId, paths, this.files());
  }

  async authorize(userId: string, id: string): Promise<RpcResult<null>> {
    return this.asOwner(userId, id, () => ok(null));
  }

  async postMessage(userId: string, id: string, input: PostMessageInput): Promise<RpcResult<PostMessageAnswer>> {
    return this.asOwner(userId, id, () => acceptMessage(this.answerDesk(), input));
  }

  /**
   * A message from this thread's parent (SUB-4 `subagent_message`), addressed to the side the
   * parent's config names; refused from any other thread.
   */
  async messageFromParent(parentId: string, content: string, side: 'a' | 'b'): Promise<RpcResult<PostMessageAnswer>> {
    const record = this.record();
    if (!record || record.parentId !== parentId) return fail(notFound(record?.id ?? 'unknown'));
    const metadata = { from_parent: parentId, ...(side === 'b' ? { to_side: 'b' } : {}) };
    return acceptMessage(this.answerDesk(), { content, metadata, ownTurn: true });
  }

  /**
   * Answers a waiting tool call (KIND-3, KIND-4, KIND-5, LOCK-1 question) and resumes the loop. 409
   * when the call does not wait for this kind of answer, or was answered already.
   */
  async answer(
    userId: string,
    id: string,
    kinds: InteractionKind | readonly InteractionKind[],
    toolCallId: string,
    answer: unknown,
  ): Promise<RpcResult<ThreadDetails>> {
    return this.asOwner(userId, id, async (record) => {
      const list = typeof kinds === 'string' ? [kinds] : kinds;
      const problem = await answerWait(this.answerDesk(), list, toolCallId, answer);
      return problem ? fail(problem) : ok(this.details(record));
    });
  }

  /** Its owner asks for a one-time link that starts an MCP server's authorization in a browser (LOCK-4). */
  async mcpStartLink(userId: string, id: string, server: string): Promise<RpcResult<McpStartLink>> {
    return this.asOwner(userId, id, () => mcpStartLink(this.mcp, this.store(), server));
  }

  /** A browser opened a start link: no key here, the link's secret is the authority (LOCK-4). */
  async mcpBeginAuthorization(ticket: string, nonceHash: string): Promise<RpcResult<McpBrowserStart>> {
    if (!this.record()) return fail(notFound(this.ctx.id.toString()));
    return beginMcpAuthorization(this.mcp, ticket, nonceHash);
  }

  /** An MCP server's OAuth callback, completed only for the browser that began it (LOCK-4). */
  async mcpAuthorized(
    state: string,
    nonceHash: string | null,
    outcome: McpCallbackOutcome,
  ): Promise<RpcResult<McpAuthorizationResult>> {
    if (!this.record()) return fail(notFound(this.ctx.id.toString()));
    return completeMcpAuthorization(this.mcp, this.answerDesk(), state, nonceHash, outcome);
  }

  /** Answers a `store_secret` call (VAR-5): see storeSecretAnswer. */
  async storeSecret(userId: string, id: string, toolCallId: string, value: string): Promise<RpcResult<ThreadDetails>> {
    return this.asOwner(userId, id, async (record) => {
      const problem = await storeSecretAnswer(this.answerDesk(), record.id, toolCallId, value);
      return problem ? fail(problem) : ok(this.details(record));
    });
  }

  private answerDesk(): AnswerDesk {
    return {
      ctx: this.ctx,
      env: this.env,
      registry: this.registry,
      store: this.store(),
      emit: this.emit,
      driver: this.driver,
      variables: this.variables,
    };
  }

  async listMessages(
    userId: string,
    id: string,
    query: { after: number; limit: number; depth: number | null },
  ): Promise<RpcResult<MessagePage>> {
    return this.asOwner(userId, id, () => ok(this.store().page(query.after, query.limit, query.depth)));
  }

  async stop(userId: string, id: string): Promise<RpcResult<ThreadDetails>> {
    return this.asOwner(userId, id, async (record) => {
      await stopThread(this.ending(), userId);
      return ok(this.details(record));
    });
  }

  async destroy(userId: string, id: string): Promise<RpcResult<null>> {
    return this.asOwner(userId, id, async (record) => {
      await deleteThread(this.ending(), userId, record);
      return ok(null);
    });
  }

  private ending(): EndingHost {
    return {
      desk: this.answerDesk(),
      index: this.index,
      indexWrites: this.indexWrites,
      setStatus: (status, reason) => this.setStatus(status, reason),
      erase: () => this.erase(),
    };
  }

  /** Drops all storage and leaves an empty object that answers "not found". */
  private async erase(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.metaTable.forget();
    this.storeCache = null;
    this.filesCache = null;
    this.variables.reset();
    this.frames = new FrameLog(this.ctx);
  }

  // ---- WebSocket (THR-2) --------------------------------------------------------------------

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
      return Response.json(
        { error: { code: 'upgrade_required', message: 'expected a WebSocket upgrade' } },
        { status: 426 },
      );
    }
    const record = this.owned(request.headers.get(USER_HEADER) ?? '');
    if (!record) return Response.json({ error: notFound(url.pathname) }, { status: 404 });
    return this.frames.openSocket(Number(url.searchParams.get('after') ?? '0'));
  }

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === 'ping') socket.send('pong');
  }

  override async alarm(): Promise<void> {
    const record = this.record();
    if (!record) return;
    await this.reporter.retry(record, this.store().messages());
    await this.driver.onAlarm();
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    try {
      socket.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }
}
