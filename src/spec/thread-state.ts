/**
 * `ThreadState`: the first argument of every tool (THR-7). It is the tool's only window onto its
 * thread: identity, the running execution, variables, the tool context (KIND-6), messages, files,
 * key-value storage and the thread's event stream.
 */
import type { ActAccess } from './permissions.js';
import type { AttachmentRef, Message, MessageRole } from './types.js';

/** Present while a tool runs (EXE-5); `null` at rest. */
export interface ExecutionState {
  /** Model steps taken in the current turn, counting the one that called this tool. */
  stepCount: number;
  /** `'a'` for side A; `'b'` for side B of a dual_ai agent. */
  currentSide: 'a' | 'b';
  /** Aborted when the thread is stopped or the tool's timeout expires. */
  abortSignal: AbortSignal;
  /** The tool call being executed. */
  toolCallId: string;
  toolName: string;
}

export interface FileStat {
  path: string;
  name: string;
  size: number;
  mimeType: string;
  uploadedAt: number;
  width?: number;
  height?: number;
}

export interface DirectoryEntry {
  name: string;
  path: string;
  kind: 'file' | 'directory';
  size?: number;
}

export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

export interface WriteFileOptions {
  mimeType?: string;
  width?: number;
  height?: number;
}

export interface NewMessageInput {
  role: Exclude<MessageRole, 'tool'>;
  content: string;
  /** Kept in the log but never sent to the model. */
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

export interface GetMessagesOptions {
  /** Only messages with `seq` greater than this. */
  after?: number;
  limit?: number;
}

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
  /** Ids of child threads this thread spawned. */
  readonly children: readonly string[];
  readonly execution: ExecutionState | null;

  /** The value of a declared variable; rejects with a clear error if it is unknown or unset. */
  env(name: string): Promise<string>;
  /** Every resolved variable of the thread (prompt → agent → thread merge). */
  readonly tenvs: Readonly<Record<string, string>>;
  /** The tool context persisted in the thread: this tool's `local` part and the `shared` one (KIND-6). */
  readonly context: ToolContext<Local, Shared>;
  /**
   * Shallow-merges `patch` into the local (default) or shared context, validates the merged value
   * (as it will read back from storage) against the tool's `contextSchema` or `sharedContextSchema`
   * when it declares one, and persists it in the thread, where later calls, turns and restarts see
   * it. A key set to `undefined` is removed. Rejects with a `ContextValidationError` naming the
   * failing field paths, storing nothing, when the merged value does not match the schema.
   */
  setContext(patch: Partial<Local>, options?: { scope?: 'local' }): Promise<void>;
  setContext(patch: Partial<Shared>, options: { scope: 'shared' }): Promise<void>;

  getMessages(options?: GetMessagesOptions): Promise<Message[]>;
  /** Appends a message to the log now. */
  injectMessage(message: NewMessageInput): Promise<Message>;
  /** Delivers a message when the thread is next between steps, and starts a turn if idle. */
  queueMessage(message: NewMessageInput): Promise<void>;

  writeFile(path: string, data: string | ArrayBuffer | Uint8Array, options?: WriteFileOptions): Promise<AttachmentRef>;
  /** The file's bytes, or `null` if there is no such file. */
  readFile(path: string): Promise<Uint8Array | null>;
  readdirFile(path: string): Promise<DirectoryEntry[]>;
  statFile(path: string): Promise<FileStat | null>;
  unlinkFile(path: string): Promise<boolean>;
  /** Lines matching `pattern` (a regular expression) in files under `path`. */
  grepFiles(pattern: string, options?: { path?: string; limit?: number }): Promise<GrepMatch[]>;
  /** Paths of files matching the glob `pattern`, sorted. */
  findFiles(pattern: string, options?: { limit?: number }): Promise<string[]>;

  getValue<T = unknown>(key: string): Promise<T | undefined>;
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
}

export interface SpawnChildOptions {
  agent: string;
  message: string;
  /** The child's own variable values; it inherits the rest (VAR-4). */
  variables?: Record<string, string>;
  tags?: string[];
  /** The id of a tool call of this thread that waits for the child (`subagent` interaction). */
  reportTo?: string;
  /** Files of this thread to copy into the child's `/attachments/from-parent/` (ATT-4). */
  files?: string[];
  /** Without `reportTo`: deliver the child's answer to this thread as a message when it finishes. */
  notify?: boolean;
  /**
   * A resumable instance (SUB-4): its name, unique among this thread's instances; the child side
   * this thread's messages go to; how many instances of the agent may exist. With `notify`, every
   * answer the child ends a session with is delivered here, not only the first.
   */
  instance?: { name: string; receives: 'a' | 'b'; maxInstances?: number };
}
