/**
 * `ThreadState`: the first argument of every tool (THR-7). It is the tool's only window onto its
 * thread: identity, the running execution, variables, the tool context (KIND-6), messages, files,
 * key-value storage and the thread's event stream.
 */
import type { ActAccess } from './permissions.js';
import type { RunCodeOptions, RunCodeResult } from './run-code.js';
import type {
  FileChunk,
  FileRecord,
  FileStats,
  GrepMatch,
  ReaddirResult,
  ReadFileStreamOptions,
  WriteFileOptions,
} from './thread-files.js';
import type {
  GetLogsOptions,
  GetMessagesOptions,
  Log,
  MessagesResult,
  MessageUpdates,
  NewMessageInput,
} from './thread-messages.js';
import type { ScheduledEffect, SetEnvOptions, SpawnChildOptions, SubagentRegistryEntry } from './thread-records.js';
import type { AttachmentRef, Message, ToolResult } from './types.js';

/** Present while a tool runs (EXE-5); `null` at rest. */
export interface ExecutionState {
  /** The execution's own id: one per run of the loop (a turn, or a dual_ai session), shared by its calls. */
  readonly flowId: string;
  /** Model steps (request and response) this execution has taken, counting the one that called this tool. */
  readonly stepCount: number;
  /** Of those, side A's (every step of a single-sided agent). */
  readonly sideAStepCount: number;
  /** Of those, side B's (dual_ai). */
  readonly sideBStepCount: number;
  /** Whether `stop()` was called in this execution. */
  readonly stopped: boolean;
  /** The side whose tool called `stop()`. */
  readonly stoppedBy?: 'a' | 'b';
  /** The history of the current request: the log as the model of this side sees it (a copy). */
  readonly messageHistory: Message[];
  /** The prompts from the root to the one running: `['main']`, or `['main', 'sub']` inside a prompt tool. */
  readonly promptPath: string[];
  /** dual_ai: the next side turn goes to `side`. Throws on an agent with one model side. */
  forceTurn(side: 'a' | 'b'): void;
  /** Ends the execution once the running calls are done, as an answer would; not an error. */
  stop(): void;
  /** `'a'` for side A; `'b'` for side B of a dual_ai agent. */
  readonly currentSide: 'a' | 'b';
  /** Aborted when the thread is stopped or the tool's timeout expires. */
  abortSignal: AbortSignal;
  /** The tool call being executed. */
  toolCallId: string;
  toolName: string;
  /** When the call's timeout expires, in ms since the epoch (EXE-6): the default limit of `runCode`. */
  deadline?: number;
  /** The tools offered beside this one, by name: those `invokeTool` can reach. */
  offeredTools?: readonly string[];
  /** The deferred tools among them, which `tool_search` loads (KIND-8), MCP servers' included. */
  deferredTools?: ReadonlyArray<{ name: string; description: string }>;
}

/**
 * `state.context` (the specification's context storage): a record shared by every tool call of one
 * turn, kept in memory only (`{}` at rest, gone when the turn ends). `local` and `shared` are
 * reserved: they read the persisted tool context (KIND-6) and cannot be assigned.
 */
export type ExecutionContext<
  Local extends object = Record<string, unknown>,
  Shared extends object = Record<string, unknown>,
> = ToolContext<Local, Shared> & Record<string, unknown>;

/** Which tool context `setContext` updates (KIND-6). */
export type ContextScope = 'local' | 'shared';

export interface SetContextOptions {
  /** `'local'` (default): the running tool's own context. `'shared'`: the context every tool sees. */
  scope?: ContextScope;
}

/** What `setContext` rejects with when the merged context does not match its schema (KIND-6). */
export class ContextValidationError extends Error {
  constructor(
    message: string,
    /** The failing field paths, dotted (`limits.max`); `(root)` for the value as a whole. */
    readonly paths: string[],
  ) {
    super(message);
    this.name = 'ContextValidationError';
  }
}

/**
 * What `state.fetch` rejects with when the egress policy or a permission refuses a URL, or a chain of
 * redirects grows too long. The message names the URL and the reason, for the model.
 */
export class EgressRefused extends Error {
  constructor(
    message: string,
    /** The refused URL, when it could be parsed. */
    readonly url: string | null,
  ) {
    super(message);
    this.name = 'EgressRefused';
  }
}

/**
 * What `state.invokeTool` (and a program of `state.runCode` calling a tool) throws when the invoked
 * call waits for an answer: an approval, a question, a client tool. The calling call pauses with it
 * (the thread waits) and, once answered, runs again from its start; the calls it had already made
 * return their recorded results instead of running twice. Rethrow it: a tool that catches it and
 * returns ends the call, and the wait with it.
 */
export class CallPaused extends Error {
  constructor(
    /** The invoked call that waits. */
    readonly toolCallId: string,
    readonly kind: string,
  ) {
    super(`tool call ${toolCallId} waits for ${kind === 'approval' ? 'an approval' : `a ${kind} answer`}`);
    this.name = 'CallPaused';
  }
}

/**
 * A tool's view of the thread's tool context (KIND-6). Both parts are read from the thread's store
 * on every access, so they always show the latest values, including updates made earlier in the same
 * call; they are copies: change them with `setContext`, never by mutation.
 */
export interface ToolContext<
  Local extends object = Record<string, unknown>,
  Shared extends object = Record<string, unknown>,
> {
  /** The running tool's own context, kept under its name; `{}` when no tool is running. */
  readonly local: Readonly<Partial<Local>>;
  /** The thread's shared context, visible to every tool. */
  readonly shared: Readonly<Partial<Shared>>;
}

/**
 * `ThreadState` is generic only in the tool context it exposes: a tool with `contextSchema` or
 * `sharedContextSchema` gets `ThreadState<its local type, its shared type>` (KIND-6).
 */
export interface ThreadState<
  Local extends object = Record<string, unknown>,
  Shared extends object = Record<string, unknown>,
> {
  readonly threadId: string;
  readonly agentId: string;
  readonly userId: string | null;
  readonly createdAt: number;
  /**
   * The child threads this thread started, oldest first, as its registry records them (a copy taken
   * when read). On a state from `getChildThread`/`getParentThread`, a snapshot taken at that call.
   */
  readonly children: SubagentRegistryEntry[];
  readonly execution: ExecutionState | null;

  /** The value of a declared variable; rejects with a clear error if it is unknown or unset. */
  env(name: string): Promise<string>;
  /** Every resolved variable of the thread (prompt → agent → thread merge). */
  readonly tenvs: Readonly<Record<string, string>>;
  /**
   * Scratch storage of the running turn, shared by its tool calls (`state.context.seen = true`), in
   * memory only: `{}` at rest. Its reserved keys `local` and `shared` are the tool context persisted
   * in the thread (KIND-6): this tool's part and the one every tool sees. Assigning `state.context`
   * replaces the scratch keys and leaves those two as they are.
   */
  get context(): ExecutionContext<Local, Shared>;
  set context(value: Record<string, unknown>);
  /**
   * What only this runtime gives (not portable): `{ runtime: 'cloudflare-workers' }`. Never the
   * Worker's bindings or variables: a tool a model drives could misuse them.
   */
  readonly _notPackableRuntimeContext?: Readonly<Record<string, unknown>>;
  /**
   * Shallow-merges `patch` into the local (default) or shared context, validates the merged value
   * (as it will read back from storage) against the tool's `contextSchema` or `sharedContextSchema`
   * when it declares one, and persists it in the thread, where later calls, turns and restarts see
   * it. A key set to `undefined` is removed. Rejects with a `ContextValidationError` naming the
   * failing field paths, storing nothing, when the merged value does not match the schema.
   */
  setContext(patch: Partial<Local>, options?: { scope?: 'local' }): Promise<void>;
  setContext(patch: Partial<Shared>, options: { scope: 'shared' }): Promise<void>;

  /**
   * A page of the log with the count of all matching messages: `limit` (100), `offset`, `order` of the
   * returned array, `includeSilent`, `maxDepth`, and this runtime's `after` (a `seq` cursor).
   */
  getMessages(options?: GetMessagesOptions): Promise<MessagesResult>;
  /** Appends a message to the log now. */
  injectMessage(message: NewMessageInput): Promise<Message>;
  /** Delivers a message when the thread is next between steps, and starts a turn if idle. */
  queueMessage(message: NewMessageInput): Promise<void>;

  /**
   * Stores a file, replacing one at that path. The MIME type is the third argument, as in the
   * specification (`writeFile(path, data, 'image/png', { width, height })`), or an option of this
   * runtime's form (`writeFile(path, data, { mimeType })`); by default it follows the extension.
   */
  writeFile(
    path: string,
    data: string | ArrayBuffer | Uint8Array,
    mimeType: string,
    options?: WriteFileOptions,
  ): Promise<FileRecord & AttachmentRef>;
  writeFile(
    path: string,
    data: string | ArrayBuffer | Uint8Array,
    options?: WriteFileOptions,
  ): Promise<FileRecord & AttachmentRef>;
  /** The file's bytes, or `null` if there is no such file. */
  readFile(path: string): Promise<ArrayBuffer | null>;
  /**
   * The file in chunks read from storage as they are consumed (a large file is never held whole),
   * or `null` if there is no such file.
   */
  readFileStream(path: string, options?: ReadFileStreamOptions): Promise<AsyncIterable<FileChunk> | null>;
  readdirFile(path: string): Promise<ReaddirResult>;
  /** The file's or directory's record, or `null` if there is neither at the path. */
  statFile(path: string): Promise<FileRecord | null>;
  unlinkFile(path: string): Promise<boolean>;
  /**
   * Makes a directory (and those above it) that persists while empty; resolves its record, also
   * when it already exists. Rejects where a file stands at the path or above it.
   */
  mkdirFile(path: string): Promise<FileRecord>;
  /** Removes an empty directory; rejects for a directory that holds anything, a file, or nothing. */
  rmdirFile(path: string): Promise<void>;
  /** How many files and directories the thread holds, their bytes, and its quota. */
  getFileStats(): Promise<FileStats>;
  /**
   * A file's thumbnail: always `null` here, since this runtime neither makes thumbnails (Workers has
   * no image decoder) nor stores given ones. An image's dimensions are in its `statFile` record.
   */
  getFileThumbnail(path: string): Promise<ArrayBuffer | null>;
  /**
   * Lines matching `pattern` (a regular expression, JavaScript syntax, run in linear time: a
   * lookahead or a backreference is refused with an error naming it) in files under `path`.
   */
  grepFiles(pattern: string, options?: { path?: string; limit?: number }): Promise<GrepMatch[]>;
  /** Paths of files matching the glob `pattern` (run in linear time; `!(...)` is refused), sorted. */
  findFiles(pattern: string, options?: { limit?: number }): Promise<string[]>;

  /** The value stored under `key` in this thread, or `null` when there is none. */
  getValue<T = unknown>(key: string): Promise<T | null>;
  /** Stores `value` (JSON) under `key`, where later calls, turns and restarts see it; `null` or `undefined` deletes it. */
  setValue(key: string, value: unknown): Promise<void>;

  /**
   * `fetch` on the model's behalf: use it, not the global `fetch`, for any URL a model chose
   * or a variable configures. The URL must be http(s) without credentials, and its host must not be
   * inside the machine or its networks (loopback, private, link-local, cloud metadata, ...; the
   * Worker variable `EGRESS_ALLOW_HOSTS` admits named development hosts). Redirects are followed by
   * hand, at most 5, and every hop is checked the same way; a hop to another origin carries only the
   * `accept`, `accept-language`, `content-type` and `user-agent` headers. `redirect: 'manual'` returns
   * the first answer as it is; `redirect: 'error'` rejects on a redirect. Rejects with an
   * `EgressRefused` naming the URL and the reason before anything is sent to a refused host.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

  /** Sends a custom frame `{ type: 'event', event, data }` to the thread's stream. */
  emit(event: string, data: unknown): void;

  /**
   * Starts a child thread (its own Durable Object, SUB-2) running `agent` on `message`. With
   * `reportTo`, the child's final answer or failure answers that tool call of this thread.
   */
  spawnChild(options: SpawnChildOptions): Promise<{ id: string }>;

  /**
   * Sends a message to a resumable subagent instance of this thread (SUB-4), by the name it was
   * created with or its thread id; queued there if it is busy, and delivered to the side its config
   * names (`receives_messages`). Rejects for an unknown instance.
   */
  messageChild(nameOrId: string, message: string): Promise<{ id: string }>;

  /**
   * Throws when the thread's permission rules refuse `act` for the running call (PERM-1, PERM-4):
   * a tool that acts through something other than this state (a shell, a client library) checks each
   * act here first. The state's own file methods check every operation by themselves.
   */
  authorize(act: ActAccess): void;

  /**
   * Hands the thread to another agent (SUB-2): when the current step's calls are done, that agent's
   * prompt, model and tools take over the same thread and its history.
   */
  handoff(agentName: string): Promise<void>;

  /**
   * Sends a message to the parent thread, queued there and delivered between its steps (SUB-4
   * explicit communication). Rejects on a thread without a parent.
   */
  notifyParent(message: string): Promise<void>;

  /**
   * Calls another tool of the thread's agent as the model would (THR-7): validation, capabilities,
   * permission rules, the watchdog, approval, truncation, and a stored tool message one level below
   * this call. Resolves with what the tool came to, also when it failed: `{ status: 'success',
   * result }` (the result's text) or `{ status: 'error', error }`, which is also what a call that
   * cannot be made resolves (an unknown tool, the calling tool itself, nesting too deep). Throws
   * `CallPaused` when the call waits for an answer; rejects once the calling call has ended, or when
   * a call that ran again after a pause makes different calls than before. Outside a running tool
   * call (at rest) it rejects: an invoked call is stored beneath the step of the call that made it.
   */
  invokeTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;

  /**
   * Runs JavaScript or TypeScript in an isolate of its own (CODE-1): no network unless granted, a
   * time, loop and memory limit, stopped with this call. `source` is the body of an async function:
   * it may `await`, `return` its result, and use `input`, `tools` and `files`. Never rejects for
   * what the program does: errors come back as data, with the line.
   */
  runCode(source: string, options?: RunCodeOptions): Promise<RunCodeResult>;

  // Messages, lifecycle, queued tools (the specification's Threads and Messages chapters).

  /** When the thread was terminated, in microseconds; `null` while it is not. */
  readonly terminated: number | null;
  /** The message with this id, or `null`. */
  getMessage(messageId: string): Promise<Message | null>;
  /**
   * Changes a stored message's `content` and merges `metadata` over its own; clients get a
   * `message_updated` frame. Rejects for an unknown id, for a message of the turn still running
   * and for anything else in `updates`: the id, role and tool-call linkage never change.
   */
  updateMessage(messageId: string, updates: MessageUpdates): Promise<Message>;
  /**
   * Removes a message and its attachments; the results of the calls an assistant message made go
   * with it. Resolves false for an unknown id. Rejects for a message of the turn still running, a
   * call still waiting, and a tool result on its own (its call would be left unanswered).
   */
  deleteMessage(messageId: string): Promise<boolean>;
  /** The thread's model steps and tool calls, read from its log. */
  getLogs(options?: GetLogsOptions): Promise<Log[]>;
  /**
   * Queues a call of a tool of the thread's agent, stored at once: run at the start of the next step
   * as an ordinary call the model sees, through every check a model's call passes; on a thread at
   * rest it starts a turn. Throws at once for a tool the agent does not offer, or a terminated thread.
   */
  queueTool(toolName: string, args: Record<string, unknown>): void;
  /** Sets this thread's status in its parent's registry of children (non-empty); nothing without a parent. */
  setStatus(status: string): Promise<void>;
  /**
   * Ends the thread for good: the running turn and its children are stopped, the parent is told, and
   * new messages, queued tools and effects are refused from then on. A second call does nothing.
   */
  terminate(): Promise<void>;

  // Resources, variables, the thread hierarchy.

  /** The model definition registered under `name`, read-only; rejects `Model not found: <name>`. */
  loadModel<T = unknown>(name: string): Promise<T>;
  /** The prompt definition registered under `name`, read-only; rejects `Prompt not found: <name>`. */
  loadPrompt<T = unknown>(name: string): Promise<T>;
  /** The agent definition registered under `name`, read-only; rejects `Agent not found: <name>`. */
  loadAgent<T = unknown>(name: string): Promise<T>;
  /** The names of the application's models, sorted. */
  getModelNames(): string[];
  /** The names of the application's prompts, sorted. */
  getPromptNames(): string[];
  /** The names of the application's agents, sorted. */
  getAgentNames(): string[];
  /**
   * Stores a variable of this thread (declared or not) and makes it visible at once: `env`, `tenvs`
   * and the secret scrubber of everything the thread stores or shows. `type` defaults to the name's
   * current type, else `'secret'`; a secret stays one. Then passed on to the thread's children and
   * their descendants (best-effort: one that cannot be reached keeps its old value).
   */
  setEnv(name: string, value: string, options?: SetEnvOptions): Promise<void>;
  /** Whether the variable is a secret; `'secret'` for a name that holds no value yet. */
  envType(name: string): Promise<'text' | 'secret'>;
  /**
   * A state over the child thread `referenceId` (one of `children`), or null when it is not a child of
   * this thread or no longer exists. Its methods act on that thread under its own permission rules;
   * its `execution` is null; `children` and `context` are what they were at this call.
   */
  getChildThread(referenceId: string): Promise<ThreadState | null>;
  /** A state over the parent thread, as `getChildThread`; null for a thread without one. */
  getParentThread(): Promise<ThreadState | null>;

  // Effects (the specification's Effects chapter).

  /**
   * Schedules the effect registered as `name` to run `delay` milliseconds from now (default 0: at the
   * thread's next alarm), outside any turn; resolves its id. Rejects at once for an unknown effect,
   * arguments that do not survive a JSON round trip, or arguments its schema refuses.
   */
  scheduleEffect(name: string, args: Record<string, unknown>, delay?: number): Promise<string>;

  /** The effects still waiting to run, `name`'s only when given, the soonest due first. */
  getScheduledEffects(name?: string): Promise<ScheduledEffect[]>;

  /** Cancels a waiting effect: false when `id` is unknown, already running or already done. */
  removeScheduledEffect(id: string): Promise<boolean>;
}
