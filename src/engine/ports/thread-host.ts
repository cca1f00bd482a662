/**
 * What a turn borrows from its thread (THR-1, SUB-3, SUB-4, CODE-1, LOCK-4): child threads, the
 * parent, sandboxed programs, the tools of connected MCP servers and the alarm that runs the loop.
 * Each is a Durable Object, a binding or the thread's own storage, so the thread layer provides it;
 * the engine builds every call's state over it (execute/thread-state.ts) and asks it for a
 * prompt's connected tools (turn/turn-tools.ts).
 */
import type {
  AnyToolDefinition,
  JsonSchema,
  McpServerConfig,
  RunCodeOptions,
  RunCodeResult,
  SpawnChildOptions,
  ThreadState,
} from '../../spec/index.js';
import type { EffectQueue } from './effect-queue.js';

/** A tool of an MCP server, as the thread knows it from the server's listing. */
export interface ConnectedTool {
  name: string;
  definition: AnyToolDefinition;
  parameters: JsonSchema;
  /** Not offered to the model, yet a call already made to it still runs (a server's connect tool once connected). */
  hidden?: boolean;
}

/** Tokens and US dollars: what a model call is estimated to need, or what it spent. */
export interface SpendEstimate {
  tokens: number;
  cost: number;
}

/**
 * The quotas of whoever pays for a thread's model calls (IDN-6): asked before each call with its
 * estimate (the request's input tokens, priced), told after it what it spent.
 */
export interface SpendPort {
  /**
   * A hold to settle after the call, or why the call may not be made. `estimate` is computed only when
   * asked: a thread no quota applies to never pays for it.
   */
  beforeModelCall(estimate: () => SpendEstimate): Promise<{ ok: true; hold: string } | { ok: false; message: string }>;
  /** What the call spent (null when it failed or was stopped before an answer), settling the hold. */
  afterModelCall(hold: string, spent: SpendEstimate | null): Promise<void>;
}

export interface ThreadHost {
  /** Makes sure the thread will run its loop (queued messages are delivered by the loop). */
  wake(): void;
  /** Starts a child thread (child threads are Durable Objects). */
  spawnChild(options: SpawnChildOptions): Promise<{ id: string }>;
  /** Sends a message to a resumable subagent instance (SUB-4). */
  messageChild(nameOrId: string, message: string): Promise<{ id: string }>;
  /** Queues a message on the parent thread. */
  notifyParent(message: string): Promise<void>;
  /**
   * Runs a program in a sandbox (CODE-1; the isolate comes from a Worker Loader binding). `state`
   * is the calling state, through which the program's tool calls, files and requests pass.
   * Absent: `state.runCode` is refused.
   */
  runCode?(state: ThreadState, source: string, options: RunCodeOptions): Promise<RunCodeResult>;
  /**
   * Stores a variable of the thread (`state.setEnv`), sealed when secret, and reopens the variables:
   * the running turn's `env`, `tenvs` and scrubber see it before this resolves. Absent: refused.
   */
  setEnv?(name: string, value: string, type: 'text' | 'secret' | undefined): Promise<void>;
  /**
   * A state over another thread of the family: the child `id` of this thread, or its parent. Null
   * when that thread is not family or no longer exists. Absent: there is no other thread to reach.
   */
  familyState?(relation: 'child' | 'parent', id: string | null): Promise<ThreadState | null>;
  /** Whether a turn is running now (a state at rest asks before changing the log). Absent: none runs. */
  turnRunning?(): boolean;
  /** Writes this thread's status into its parent's registry of children. Absent: nowhere to write. */
  setStatus?(status: string): Promise<void>;
  /**
   * Terminates the thread (`state.terminate`): aborts its turn and children, records the time, tells
   * the parent. `fromTurn`: called by a call of the running turn, which must not be waited for.
   */
  terminate?(options: { fromTurn: boolean }): Promise<void>;
  /** The spend quotas the thread's model calls count against (IDN-6). Absent: none. */
  spend?: SpendPort;
  /** The thread's scheduled effects (the Effects chapter). Absent: `state.scheduleEffect` is refused. */
  effects?: EffectQueue;
  /** The tools of the MCP servers a prompt declares, as this thread knows them (LOCK-4). Absent: none. */
  connectedTools?(
    servers: Readonly<Record<string, McpServerConfig>>,
    signal: AbortSignal,
  ): Promise<readonly ConnectedTool[]>;
}
