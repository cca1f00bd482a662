/**
 * The Thread Durable Object (THR-1): one per thread, holding its message log, variables, key-value
 * store, queue and stream frames in SQLite, its files in R2, and its row in the D1 index. The agent
 * loop runs inside the alarm handler (THR-3): whatever started a turn, an eviction or restart is
 * followed by the alarm, which resumes from the last persisted step.
 *
 * This is the object's surface: its RPC methods, its WebSocket and its alarm, and what follows when
 * a turn starts or ends. Its parts and their wiring are ThreadWiring's (thread-wiring.ts); the
 * history RPCs (fork, rewind) are ThreadBranching's, the automation RPCs (effects, spans,
 * schedules) ThreadAutomation's and the family RPCs (children, parent) ThreadFamily's, the classes
 * between them.
 */
import type { TurnOutcome } from '../../engine/conversation/index.js';
import type { EndpointTarget } from '../../engine/endpoints/index.js';
import { noteOutsideFile } from '../../engine/execute/index.js';
import type { ApprovalAnswer, AttachmentRef, InteractionKind, ThreadStatus } from '../../spec/index.js';
import { type Principal, type ThreadAction, threadAccess } from '../access/index.js';
import {
  type CreateThreadInput,
  fail,
  type McpAuthorizationResult,
  type McpBrowserStart,
  type McpCallbackOutcome,
  type McpStartLink,
  type MessagePage,
  type MessageWithFilesInput,
  notFound,
  ok,
  type PostMessageAnswer,
  type PostMessageInput,
  type RpcResult,
  type ThreadDetails,
  type ThreadRpc,
  type UploadedFile,
} from '../bindings/index.js';
import { reportChildStatus } from '../children/index.js';
import { armSidecarAlarm, type SidecarDesk, storeUpload, sweepSidecars } from '../files/index.js';
import {
  acceptMessage,
  answerWait,
  armChildWaitAlarm,
  auditApproval,
  authorOf,
  expireChildWaits,
  storeSecretAnswer,
} from '../inbox/index.js';
import { beginMcpAuthorization, completeMcpAuthorization, mcpStartLink } from '../mcp/index.js';
import { acceptMessageWithFiles } from '../message-files/index.js';
import { armSchedules, fireDueSchedules, installAgentSchedules } from '../schedules/index.js';
import { ownershipOf, type ThreadRecord } from '../storage/index.js';
import { outcomeEffect } from '../turn/index.js';
import { publishThreadCreated, publishTurnEnd, type ThreadEventSource } from '../webhooks/index.js';
import { PRINCIPAL_HEADER, principalFromHeader } from './principal-header.js';
import { writeNewThread } from './thread-creation.js';
import { withChildStatuses } from './thread-details.js';
import { deleteThread, stopThread } from './thread-ending.js';
import { runThreadEndpoint } from './thread-endpoint.js';
import { ThreadFamily } from './thread-family.js';
import { ownerPrincipal, type TerminationHost, terminateThread } from './thread-termination.js';

/** The header the Worker uses to tell the object who opens a WebSocket. */

export class ThreadObject extends ThreadFamily implements ThreadRpc {
  // ---- what follows when a turn starts or ends ----------------------------------------------

  protected override setStatus(status: ThreadStatus, reason?: string): void {
    this.metaTable.set('status', status);
    this.emit({ type: 'status', status, ...(reason ? { reason } : {}) });
    const { id, agentId } = this.store().info;
    this.indexWrites.status(id, status, agentId, () => this.store().openInteractions());
    // `state.children` of the parent shows it: running, idle, waiting, terminated...
    void reportChildStatus(this.ctx, this.env, this.record(), status, this.variables.logError);
  }

  /** A child tells its parent how a session ended (SUB-7). */
  protected override reportOutcome(outcome: TurnOutcome): void {
    const record = this.record();
    if (record) this.reporter.report(record, outcome, this.store().messages());
  }

  protected override recordOutcome(outcome: TurnOutcome): void {
    // USE-2: the turn's model steps go to the usage index, off the turn's path.
    this.usageReports.send();
    // A thread terminated while the turn ran stays terminated: the aborted turn changes nothing.
    if (typeof this.store().info.terminatedAt === 'number') {
      this.setStatus('terminated', 'terminated');
      this.lease.ended(false);
      return;
    }
    const effect = outcomeEffect(outcome, this.store().openInteractions());
    this.metaTable.set('last_error', effect.error ? this.variables.scrubber.text(effect.error.message) : null);
    if (effect.error) this.emit({ type: 'error', ...effect.error });
    this.setStatus(effect.status, effect.reason);
    publishTurnEnd(this.eventSource(), outcome);
    // IDN-5: a turn waiting for an answer, or followed by queued messages, keeps its slot.
    const waits = effect.status === 'waiting' || effect.status === 'awaiting_hitl';
    this.lease.ended(waits || this.store().hasQueued());
  }

  protected override async terminateFrom(fromTurn: boolean): Promise<void> {
    const record = this.record();
    if (record) await terminateThread(this.termination(), ownerPrincipal(record), fromTurn);
  }

  private termination(): TerminationHost {
    return {
      ...this.ending(),
      report: (outcome) => this.reportOutcome(outcome),
      cancelEffects: () => {
        for (const row of this.effectRows.withStatus('pending')) this.effectRows.cancel(row.id, Date.now());
      },
    };
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
          // FORK-2: a fork is idle until it is sent a message, whatever its copied log ends with.
          const turnStarts = !input.fork && this.driver.startsTurn();
          if (turnStarts) await this.driver.wake();
          await armSchedules(this.scheduleDesk());
          return turnStarts;
        },
        installSchedules: () => installAgentSchedules(this.scheduleDesk(), input.agent),
        erase: () => this.erase(),
      },
      input,
    );
    if (!created.ok) return created;
    publishThreadCreated(this.eventSource());
    return ok(this.details(created.value));
  }

  /** What the thread's webhook events are published from (WH-1), scrubbed by its scrubber. */
  private eventSource(): ThreadEventSource {
    const { ctx, env } = this;
    return { ctx, env, record: this.record(), scrubber: this.variables.scrubber, store: this.store() };
  }

  async describe(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>> {
    return this.asPrincipal(principal, id, 'read', async (record) => {
      const details = this.details(record, await this.files().settledUsage());
      return ok(await withChildStatuses(details, this.index));
    });
  }

  /** A client's upload, streamed in and stored under the thread's quota (ATT-5, ATT-6). */
  async putFile(
    principal: Principal,
    id: string,
    file: UploadedFile,
    body: ReadableStream | null,
  ): Promise<RpcResult<AttachmentRef>> {
    return this.asPrincipal(principal, id, 'write', async () => {
      const stored = await storeUpload(this.files(), file, body);
      // INJ-1: what a client uploads is outside text when a tool reads it back.
      if (stored.ok) noteOutsideFile(this.store(), stored.value.path);
      return stored;
    });
  }

  async authorize(principal: Principal, id: string, action: ThreadAction): Promise<RpcResult<null>> {
    return this.asPrincipal(principal, id, action, () => ok(null));
  }

  async postMessage(principal: Principal, id: string, input: PostMessageInput): Promise<RpcResult<PostMessageAnswer>> {
    return this.asPrincipal(principal, id, 'write', () => acceptMessage(this.answerDesk(), input));
  }

  /** A message with files (MSG-1 to MSG-4), a multipart body streamed in: see message-intake.ts. */
  async postMessageWithFiles(
    principal: Principal,
    id: string,
    input: MessageWithFilesInput,
    body: ReadableStream | null,
  ): Promise<RpcResult<PostMessageAnswer>> {
    return this.asPrincipal(principal, id, 'write', () =>
      acceptMessageWithFiles(this.answerDesk(), this.files(), input, body),
    );
  }

  /**
   * Answers a waiting tool call (KIND-3, KIND-4, KIND-5, LOCK-1 question) and resumes the loop. 409
   * when the call does not wait for this kind of answer, or was answered already.
   */
  async answer(
    principal: Principal,
    id: string,
    kinds: InteractionKind | readonly InteractionKind[],
    toolCallId: string,
    answer: unknown,
  ): Promise<RpcResult<ThreadDetails>> {
    const list: readonly InteractionKind[] = typeof kinds === 'string' ? [kinds] : kinds;
    // Approving a call takes an approver; the other answers, a member (IDN-4).
    const action = list.includes('approval') ? 'approve' : 'answer';
    return this.asPrincipal(principal, id, action, async (record) => {
      const problem = await answerWait(this.answerDesk(), list, toolCallId, answer, authorOf(principal));
      if (problem) return fail(problem);
      if (action === 'approve') await this.auditApproval(principal, record, toolCallId);
      return ok(this.details(record));
    });
  }

  /** IDN-10: the approval just stored, in the tenant's audit log. */
  private async auditApproval(principal: Principal, record: ThreadRecord, toolCallId: string): Promise<void> {
    const wait = this.store()
      .interactions(toolCallId)
      .find((candidate) => candidate.kind === 'approval' && candidate.answered);
    if (!wait) return;
    const call = { threadId: record.id, toolCallId, toolName: wait.toolName };
    await auditApproval(this.env, ownershipOf(record).tenant, principal, call, wait.answer as ApprovalAnswer);
  }

  /** Its owner asks for a one-time link that starts an MCP server's authorization in a browser (LOCK-4). */
  async mcpStartLink(principal: Principal, id: string, server: string): Promise<RpcResult<McpStartLink>> {
    return this.asPrincipal(principal, id, 'write', () => mcpStartLink(this.mcp, this.store(), server));
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
  async storeSecret(
    principal: Principal,
    id: string,
    toolCallId: string,
    value: string,
  ): Promise<RpcResult<ThreadDetails>> {
    return this.asPrincipal(principal, id, 'answer', async (record) => {
      const problem = await storeSecretAnswer(this.answerDesk(), record.id, toolCallId, value);
      return problem ? fail(problem) : ok(this.details(record));
    });
  }

  /** A thread endpoint (EP-8, EP-10), run here at rest, for a principal who may read (GET) or write the thread. */
  async runEndpoint(principal: Principal, id: string, endpoint: EndpointTarget, request: Request): Promise<Response> {
    const action = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const result = await this.asPrincipal(principal, id, action, async () => {
      // The object's own host: an endpoint schedules effects like a tool.
      const thread = this.threadHost;
      const host = { ...this.answerDesk(), files: () => this.files(), thread, store: () => this.store() };
      return ok(await runThreadEndpoint(host, endpoint, request));
    });
    if (result.ok) return result.value;
    return Response.json(
      { error: { code: result.error.code, message: result.error.message } },
      { status: result.error.status },
    );
  }

  async listMessages(
    principal: Principal,
    id: string,
    query: { after: number; limit: number; depth: number | null },
  ): Promise<RpcResult<MessagePage>> {
    return this.asPrincipal(principal, id, 'read', () => ok(this.store().page(query.after, query.limit, query.depth)));
  }

  async stop(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>> {
    return this.asPrincipal(principal, id, 'write', async (record) => {
      await stopThread(this.ending(), principal);
      return ok(this.details(record));
    });
  }

  /** Ends the thread for good (POST /terminate, state.terminate): see thread-termination.ts. */
  async terminate(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>> {
    return this.asPrincipal(principal, id, 'write', async (record) => {
      await terminateThread(this.termination(), principal, false);
      return ok(this.details(this.record() ?? record));
    });
  }

  async destroy(principal: Principal, id: string): Promise<RpcResult<null>> {
    return this.asPrincipal(principal, id, 'delete', async (record) => {
      await deleteThread(this.ending(), principal, record);
      return ok(null);
    });
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
    const principal = principalFromHeader(request.headers.get(PRINCIPAL_HEADER));
    const record = this.record();
    if (!principal || !record || threadAccess(ownershipOf(record), principal, 'read') !== 'allowed') {
      return Response.json({ error: notFound(url.pathname) }, { status: 404 });
    }
    return this.frames.openSocket(Number(url.searchParams.get('after') ?? '0'));
  }

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === 'ping') socket.send('pong');
  }

  override async alarm(): Promise<void> {
    const record = this.record();
    if (!record) return;
    await this.reporter.retry(record, this.store().messages());
    // THR-1: what the thread index was not told yet goes before anything else the alarm does.
    this.indexWrites.retry(this.driver.startsTurn());
    // WAIT-1: waits for children past their cap are answered before the loop looks for work.
    await expireChildWaits(this.answerDesk());
    // Effects due now run before a turn starts, those that came due during it once it has ended:
    // never inside a turn (an effect that queues a message wakes the loop for the next one).
    if (!this.driver.busy) await this.effects.runDue();
    // Schedules due fire before the turn (their message starts it), and a busy thread meets them
    // as it meets any message: by their on_busy.
    await fireDueSchedules(this.scheduleDesk());
    await this.driver.onAlarm();
    if (!this.driver.busy) await this.effects.runDue();
    // Turns run only here, so a turn that ended waiting for a child is followed by this, in order:
    // the alarm is left at the wait's cap unless something earlier (a woken loop) holds it.
    await armChildWaitAlarm(this.answerDesk());
    // SIDE-1: sidecars past their retention go, and the alarm comes back for the next one.
    const sidecars: SidecarDesk = {
      ctx: this.ctx,
      meta: this.metaTable,
      // An expired sidecar goes without a copy into the file history: it was only ever kept a while.
      files: () => this.files().unrecorded(),
      retentionMs: this.registry.limits.toolOutputRetentionMs,
    };
    await sweepSidecars(sidecars);
    await armSidecarAlarm(sidecars);
    // The turn deleted the alarm when it ended: it comes back for the next effect due.
    await this.effects.arm();
    await armSchedules(this.scheduleDesk());
    await this.indexWrites.arm();
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    try {
      socket.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }
}
