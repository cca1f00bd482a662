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
  /** When the call's timeout expires, in ms since the epoch (EXE-6): the default limit of `runCode`. */
  deadline?: number;
  /** The tools offered beside this one, by name: those `invokeTool` can reach. */
  offeredTools?: readonly string[];
  /** The deferred tools among them, which `tool_search` loads (KIND-8), MCP servers' included. */
  deferredTools?: ReadonlyArray<{ name: string; description: string }>;
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

/** Options of `state.runCode` (CODE-1). */
export interface RunCodeOptions {
  /** JSON passed to the program as `input`. */
  input?: unknown;
  /** Wall-clock limit in ms; default what remains of the calling tool's timeout, at most 300000. */
  timeout?: number;
  /** Extra source files the program may import by relative path, e.g. `{ 'util.ts': '...' }`. */
  modules?: Record<string, string>;
  /**
   * Let the program use `fetch`. Default false: the isolate has no network at all. When granted,
   * every request goes through the calling tool's `state.fetch` (the egress policy and its rules).
   */
  network?: boolean;
  /** Thread paths the program may read or write through `files`, each checked by the thread's rules. */
  files?: { read?: string[]; write?: string[] };
  /** Tools of the thread's agent the program may call as `tools.<name>(args)`, through `invokeTool`. */
  tools?: string[];
  /** Estimated allocation limit in MiB; default 64, at most 128. */
  memoryMB?: number;
}

/** A line the program printed with `console.*`. */
export interface RunCodeLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

/** What a program of `state.runCode` came to, as data (CODE-1). */
export type RunCodeResult =
  | { status: 'success'; result: unknown; logs: RunCodeLog[]; logsDropped: number }
  | {
      status: 'error';
      error: string;
      /** Where the error was thrown: `program` or a module's name, and the line in that source. */
      file?: string;
      line?: number;
      logs: RunCodeLog[];
      logsDropped: number;
    };

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
  /**
   * Lines matching `pattern` (a regular expression, JavaScript syntax, run in linear time: a
   * lookahead or a backreference is refused with an error naming it) in files under `path`.
   */
  grepFiles(pattern: string, options?: { path?: string; limit?: number }): Promise<GrepMatch[]>;
  /** Paths of files matching the glob `pattern` (run in linear time; `!(...)` is refused), sorted. */
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

  /**
   * Calls another tool of the thread's agent as the model would (THR-7): validation, capabilities,
   * permission rules, the watchdog, approval, truncation, and a stored tool message one level below
   * this call. Resolves with the tool's result; rejects with its error. Throws `CallPaused` when the
   * call waits for an answer.
   */
  invokeTool(name: string, args?: Record<string, unknown>): Promise<unknown>;

  /**
   * Runs JavaScript or TypeScript in an isolate of its own (CODE-1): no network unless granted, a
   * time, loop and memory limit, stopped with this call. `source` is the body of an async function:
   * it may `await`, `return` its result, and use `input`, `tools` and `files`. Never rejects for
   * what the program does: errors come back as data, with the line.
   */
  runCode(source: string, options?: RunCodeOptions): Promise<RunCodeResult>;

  // Messages, lifecycle, queued tools (the specification's Threads and Messages chapters).

  // Resources, variables, the thread hierarchy.

  // Effects (the specification's Effects chapter).
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
