/**
 * The Thread object's RPC surface as the HTTP layer sees it: inputs, answers and errors. Errors are
 * returned as values, not thrown, because an exception crossing RPC keeps only its message.
 */
import type { EndpointTarget } from '../../engine/endpoints/index.js';
import type { UsageTotals } from '../../engine/ports/index.js';
import type { FinishedSpan } from '../../engine/tracing/index.js';
import type {
  AttachmentRef,
  InteractionKind,
  Message,
  OnBusy,
  PermissionRule,
  ThreadStatus,
} from '../../spec/index.js';
import type { Principal, ThreadAction } from '../access/index.js';
import type { ChildOutcome, DeferredChildView, FamilyCall, JsonValue } from './family-api.js';
import type { ForkedFrom, ForkRequest, ForkSeed, NotCopied } from './history-api.js';
import type { ScheduleInput, ScheduleView } from './schedule-api.js';

export interface ApiError {
  status: 400 | 401 | 403 | 404 | 409 | 411 | 413 | 415 | 422 | 429 | 500 | 501 | 503;
  code: string;
  message: string;
  details?: unknown;
  /** Seconds after which trying again may succeed: sent as Retry-After (429). */
  retryAfter?: number;
}

export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export function ok<T>(value: T): RpcResult<T> {
  return { ok: true, value };
}

export function fail<T>(error: ApiError): RpcResult<T> {
  return { ok: false, error };
}

/** A thread the principal sees, asked to do what its role may not (IDN-4). */
export const forbidden = (message: string): ApiError => ({ status: 403, code: 'forbidden', message });

export const notFound = (id: string): ApiError => ({
  status: 404,
  code: 'thread_not_found',
  message: `no thread ${id}`,
});

export interface InitialMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  /** `to_side` addresses a dual_ai thread's side B (SUB-4 `receives_messages`). */
  metadata?: Record<string, unknown>;
}

export interface CreateThreadInput {
  id: string;
  agent: string;
  /** The tenant the thread belongs to (IDN-1); its children inherit it. */
  tenant: string;
  /** The subject that started it, its owner (THR-6). */
  userId: string;
  /** Visible to the whole tenant, not only its owner and the tenant's admins (IDN-1). */
  shared?: boolean;
  messages: InitialMessage[];
  variables: Record<string, string>;
  tags: string[];
  headless: boolean;
  /** Session-scope permission rules (PERM-1). */
  permissions?: PermissionRule[];
  /** Rules a child thread inherits from its ancestors: their denies are final here (PERM-1). */
  inheritedPermissions?: PermissionRule[];
  /** The thread's own model budget (THR-4). */
  budget?: { maxTokens?: number; maxCost?: number };
  /** Each tool's starting context, already checked against its schema (CTX-1). */
  context?: Record<string, Record<string, unknown>>;
  /** Set when a parent thread spawns this one (SUB-7). */
  parentId?: string;
  /** The parent's tool call this child answers when its turn ends. */
  reportTo?: string;
  /** Without reportTo: the child's answer goes to the parent as a message (non-blocking, SUB-3). */
  notifyParent?: boolean;
  /** Inherited values the parent held as secrets: they stay sealed in the child (VAR-3). */
  secretNames?: string[];
  /** Inherited values the parent held as scoped: they stay scoped in the child's subtree (SCOPE-1). */
  scopedNames?: string[];
  /** A resumable instance (SUB-4): with notifyParent, every session's answer is reported, not only the first. */
  resumable?: boolean;
  /** Files its parent copied in before creating it: counted against its storage quota (ATT-4, ATT-6). */
  files?: { path: string; size: number }[];
  /** The W3C trace context its first turn continues: the caller's, or the parent's tool call (TRACE-2). */
  traceparent?: string;
  /** A fork (FORK-2): its source, and the log and key-value rows copied from it. */
  fork?: ForkSeed;
}

export interface ForkAnswer {
  thread: ThreadDetails;
  not_copied: NotCopied;
}

export interface RewindAnswer {
  thread: ThreadDetails;
  removed_messages: number;
  restored_files: number;
}

/** A file a client uploads: streamed to the thread's object, which stores it under the quota (ATT-5, ATT-6). */
export interface UploadedFile {
  path: string;
  /** The body's Content-Length: the quota is checked against it before a byte is read. */
  length: number;
  mimeType: string;
}

export interface SpawnChildInput {
  agent: string;
  /** The child's answer goes to the parent as a message when it finishes. */
  notify?: boolean;
  /** Files of the parent copied into the child's `/attachments/from-parent/` before it starts (ATT-4). */
  files?: string[];
  messages: InitialMessage[];
  /** The child's own values; they win over what it inherits (VAR-2). */
  variables: Record<string, string>;
  tags: string[];
  /** A resumable instance (SUB-4): recorded by name in the parent. */
  instance?: { name: string; receives: 'a' | 'b'; maxInstances?: number };
}

export interface ThreadDetails {
  id: string;
  agent: string;
  status: ThreadStatus;
  created_at: number;
  tags: string[];
  headless: boolean;
  parent_id: string | null;
  /** The subject that started it (IDN-1). */
  owner: string | null;
  /** Visible to its whole tenant (IDN-1). */
  shared: boolean;
  /** Child threads, oldest first; `status` as the thread index last recorded it (SUB-7). */
  children: { id: string; status?: ThreadStatus }[];
  /** What a paused thread waits for, oldest first; empty when it waits for nothing. */
  waiting_for: WaitingFor[];
  last_error: string | null;
  /**
   * Why the thread index refused the thread for good (listings miss it until a later change is
   * accepted); null while the index has it or is still being told (THR-1).
   */
  index_error: string | null;
  message_count: number;
  /** The newest stream frame: a WebSocket opened with `?after=` this misses nothing from now on. */
  last_frame_seq: number;
  /** Model usage of the whole thread and of its newest turn (THR-4). */
  usage: { thread: UsageTotals; turn: UsageTotals };
  /** The budget in force: the agent's and the thread's, the tighter of each; null when none. */
  budget: { maxTokens?: number; maxCost?: number } | null;
  /** What the thread's files take, and its quota (ATT-6). */
  storage: { bytes: number; quota_bytes: number };
  /** The thread and message it was forked from; null for a thread that is not a fork (FORK-2). */
  forked_from: ForkedFrom | null;
}

export interface PostMessageInput {
  content: string;
  idempotencyKey?: string;
  /** What the message does if the thread is busy (`on_busy`); absent, the agent's `onBusy`. */
  onBusy?: OnBusy;
  /** The caller's W3C trace context: the turn the message starts continues it (TRACE-2). */
  traceparent?: string;
}

/**
 * A part of a message's content (MSG-1): text, or a file sent inline (base64), named by its path in
 * the thread, or (an image) by a URL the runtime fetches.
 */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'file'; data: string; mime_type: string; name?: string }
  | { type: 'image' | 'file'; path: string }
  | { type: 'image'; url: string };

/** A message with files (MSG-1, MSG-2): JSON parts, or a multipart body streamed over the RPC. */
export interface MessageWithFilesInput {
  /** The JSON body's content parts; absent for a multipart body. */
  parts?: MessagePart[];
  /** The multipart body's Content-Type, boundary included; the body itself is the RPC's stream. */
  contentType?: string;
  idempotencyKey?: string;
  /** As PostMessageInput's; a multipart body may carry its own `on_busy` field instead. */
  onBusy?: OnBusy;
  traceparent?: string;
}

export interface PostMessageAnswer {
  messageId: string;
  /** True when the thread was busy and the message waits for the current step to end. */
  queued: boolean;
  /** True when the Idempotency-Key was seen before and nothing new was stored. */
  replayed: boolean;
}

export interface MessagePage {
  messages: Message[];
  /** Pass as `after` for the next page; `null` at the end. */
  next_after: number | null;
}

/**
 * What a parent says to a child's report (SUB-7): taken, or the parent no longer exists (it was
 * deleted), in which case the child stops trying.
 */
export type ChildDelivery = 'delivered' | 'parent_gone';

/** What an OAuth callback brought: the authorization code, or the authorization server's error. */
export type McpCallbackOutcome = { code: string } | { error: string };

/** A one-time link to start an MCP server's authorization in a browser: `ticket` is its secret. */
export interface McpStartLink {
  server: string;
  ticket: string;
  /** Epoch milliseconds after which the link no longer opens. */
  expires_at: number;
}

/** Where a browser that opened a start link goes: the authorization URL with the state bound to it. */
export interface McpBrowserStart {
  state: string;
  authorization_url: string;
}

export interface McpAuthorizationResult {
  server: string;
  authorized: boolean;
  error?: string;
}

export interface WaitingFor {
  tool_call_id: string;
  name: string;
  kind: InteractionKind;
  payload: JsonValue;
  created_at: number;
}

/** A scheduled effect as the API shows it (the Effects chapter); times in milliseconds since the epoch. */
export interface EffectView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  scheduled_at: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
  attempts: number;
}

/**
 * The Thread Durable Object's RPC methods (THR-1, SUB-7): what the Worker and other threads call
 * through a stub. `ThreadObject` implements it; the namespace binding is typed by it, so nothing
 * below the object needs the object's class.
 */
export interface ThreadRpc extends Rpc.DurableObjectBranded {
  create(input: CreateThreadInput): Promise<RpcResult<ThreadDetails>>;
  /** A request of a sandboxed program granted the network (CODE-1), sent through its run's `state.fetch`. */
  sandboxFetch(run: string, request: Request): Promise<Response>;
  spawnChild(principal: Principal, id: string, input: SpawnChildInput): Promise<RpcResult<ThreadDetails>>;
  deferredChild(principal: Principal, id: string, requestId: string): Promise<RpcResult<DeferredChildView>>;
  bootDeferredChild(
    principal: Principal,
    id: string,
    requestId: string,
    values: Record<string, string>,
  ): Promise<RpcResult<{ child_id: string }>>;
  childFinished(childId: string, toolCallId: string, outcome: ChildOutcome): Promise<ChildDelivery>;
  childMessage(childId: string, content: string): Promise<ChildDelivery>;
  /**
   * A child's status for this thread's registry of children (`state.children`): its own
   * (`state.setStatus`), or with `fromTurn` its turn's start or end, which keeps a status it set.
   */
  childStatus(childId: string, status: string, fromTurn?: boolean): Promise<ChildDelivery>;
  /**
   * A method of this thread's state called by its parent or one of its children, as `principal` (the
   * family's owner, as a member): the caller must be family, and what it may call depends on which.
   * The state acts under this thread's rules; 404 for a caller that is not family.
   */
  familyCall(principal: Principal, id: string, call: FamilyCall): Promise<RpcResult<{ value: JsonValue | undefined }>>;
  /**
   * A child hands its parent the files it produced: the parent copies them into its own
   * `/attachments/from-<child>/`, under its quota (413 when they do not fit; 404 for a parent gone).
   */
  takeChildFiles(childId: string, paths: string[]): Promise<RpcResult<AttachmentRef[]>>;
  /** A client's upload, streamed; 413 `storage_quota_exceeded` with nothing stored when it does not fit. */
  putFile(
    principal: Principal,
    id: string,
    file: UploadedFile,
    body: ReadableStream | null,
  ): Promise<RpcResult<AttachmentRef>>;
  describe(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>>;
  /** Whether `principal` may do `action` to the thread: null, or its 404 or 403 (IDN-1). */
  authorize(principal: Principal, id: string, action: ThreadAction): Promise<RpcResult<null>>;
  postMessage(principal: Principal, id: string, input: PostMessageInput): Promise<RpcResult<PostMessageAnswer>>;
  /** A message with files (MSG-1 to MSG-4): each file stored under /attachments/, then the message. */
  postMessageWithFiles(
    principal: Principal,
    id: string,
    input: MessageWithFilesInput,
    body: ReadableStream | null,
  ): Promise<RpcResult<PostMessageAnswer>>;
  messageFromParent(
    parentId: string,
    content: string,
    side: 'a' | 'b',
    traceparent?: string,
  ): Promise<RpcResult<PostMessageAnswer>>;
  answer(
    principal: Principal,
    id: string,
    kinds: InteractionKind | readonly InteractionKind[],
    toolCallId: string,
    answer: unknown,
  ): Promise<RpcResult<ThreadDetails>>;
  storeSecret(principal: Principal, id: string, toolCallId: string, value: string): Promise<RpcResult<ThreadDetails>>;
  /** Its owner asks for a one-time link that starts `server`'s OAuth authorization in a browser (LOCK-4). */
  mcpStartLink(principal: Principal, id: string, server: string): Promise<RpcResult<McpStartLink>>;
  /** A browser opened that link; `nonceHash` is the hash of the nonce its cookie now holds. */
  mcpBeginAuthorization(ticket: string, nonceHash: string): Promise<RpcResult<McpBrowserStart>>;
  /** The OAuth callback, from a browser whose cookie's nonce hashes to `nonceHash` (null: no cookie). */
  mcpAuthorized(
    state: string,
    nonceHash: string | null,
    outcome: McpCallbackOutcome,
  ): Promise<RpcResult<McpAuthorizationResult>>;
  /**
   * Runs the application's thread endpoint `endpoint` with `request` inside the thread, at rest, when
   * `principal` may read (GET, HEAD) or write (any other method) the thread; else its 404 or 403, in
   * the API's error shape (EP-8, EP-10).
   */
  runEndpoint(principal: Principal, id: string, endpoint: EndpointTarget, request: Request): Promise<Response>;
  listMessages(
    principal: Principal,
    id: string,
    query: { after: number; limit: number; depth: number | null },
  ): Promise<RpcResult<MessagePage>>;
  /** The effects waiting or running, then the newest finished ones (read). */
  /** The thread's stored spans (TRACE-5): one trace's, or the newest `traces` traces'. */
  listSpans(
    principal: Principal,
    id: string,
    query: { traceId?: string; traces: number },
  ): Promise<RpcResult<{ spans: FinishedSpan[] }>>;
  listEffects(principal: Principal, id: string): Promise<RpcResult<{ effects: EffectView[] }>>;
  /** Cancels a waiting effect (write): 404 `effect_not_found`, 409 `effect_not_pending`. */
  cancelEffect(principal: Principal, id: string, effectId: string): Promise<RpcResult<EffectView>>;
  /** A schedule of the thread (write): 400 `invalid_cron`, `invalid_timezone`, `invalid_at`, ... */
  createSchedule(principal: Principal, id: string, input: ScheduleInput): Promise<RpcResult<ScheduleView>>;
  listSchedules(principal: Principal, id: string): Promise<RpcResult<{ schedules: ScheduleView[] }>>;
  /** Pauses or resumes a schedule (write): 404 `schedule_not_found`. */
  updateSchedule(
    principal: Principal,
    id: string,
    scheduleId: string,
    paused: boolean,
  ): Promise<RpcResult<ScheduleView>>;
  deleteSchedule(principal: Principal, id: string, scheduleId: string): Promise<RpcResult<ScheduleView>>;
  /**
   * Forks the thread at a point of its log into a new thread owned by `principal` (FORK-2), or just
   * before a user message (FORK-3): 404 `message_not_found`, 409 `point_mid_round`, `point_running`,
   * `history_expired`; 400 `not_a_user_message`, `unknown_agent`, `missing_variables`; 413.
   */
  forkThread(principal: Principal, id: string, request: ForkRequest): Promise<RpcResult<ForkAnswer>>;
  /** Truncates the log after `to` and puts the files back (FORK-6): 409 `thread_busy`, `side_effects`, ... */
  rewindThread(
    principal: Principal,
    id: string,
    request: { to: string; force: boolean },
  ): Promise<RpcResult<RewindAnswer>>;
  stop(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>>;
  /** Ends the thread for good: refused messages, no more turns; a second call changes nothing. */
  terminate(principal: Principal, id: string): Promise<RpcResult<ThreadDetails>>;
  destroy(principal: Principal, id: string): Promise<RpcResult<null>>;
  fetch(request: Request): Promise<Response>;
}
