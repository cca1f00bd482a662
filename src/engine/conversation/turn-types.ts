/**
 * What a turn is given and how it ends (THR-3): the thread's store, files, variables, registry,
 * provider, frame sink and abort signal, and what it borrows from its thread (ThreadHost). The loop
 * builds each call's state from these (execute/thread-state.ts). The loop (turn/), nested prompt
 * runs (subagents/) and the thread layer all speak these types.
 */
import type { AgentDefinition, ModelDefinition, ToolCall } from '../../spec/index.js';
import type { EgressPolicy, FetchTransport } from '../egress/index.js';
import type { ExecutionFlow, ResolvedVariables, ToolGuard } from '../execute/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { FrameSink, Provider, ThreadHost, ThreadStore } from '../ports/index.js';
import type { Registry } from '../registry/index.js';

export interface TurnDeps {
  /** The thread's variables (VAR-2): tools read them, and `optional` tools are offered by them (SUB-3). */
  variables: ResolvedVariables;
  store: ThreadStore;
  files: ThreadFiles;
  registry: Registry;
  agent: AgentDefinition;
  provider(model: ModelDefinition): Provider;
  emit: FrameSink;
  /** Fires when the thread is stopped or a new message interrupts the turn: it ends at its next safe point. */
  signal: AbortSignal;
  /** Fires when the thread is stopped: cuts a running call too. Absent, `signal` does both. */
  toolSignal?: AbortSignal;
  /** What the turn borrows from its thread: children, the parent, programs, MCP tools, waking. */
  host: ThreadHost;
  /** The execution this run of the loop is (ExecutionState); set by `runTurn`. */
  flow?: ExecutionFlow;
  /** The prompts from the root down to the one whose tools run here (ExecutionState.promptPath). */
  promptPath?: readonly string[];
  /** What a call's `state.fetch` may contact on the model's behalf. */
  egress: EgressPolicy;
  /** The network under `state.fetch`; the global `fetch` unless a test gives another. */
  transport?: FetchTransport;
  guards?: readonly ToolGuard[];
  scrub?(text: string): string;
  /** Text still streaming cut before what could be the start of a secret (ARGS-1; the scrubber's). */
  withoutSecretStart?(text: string): string;
  /** Called before each model request and each tool batch: the thread re-arms its safety alarm. */
  onProgress?(): void;
  now?(): number;
}

export type TurnOutcome =
  | { kind: 'done'; reason: 'response' | 'nothing_to_do' | 'handoff' | 'session_turns' }
  /** A tool called `state.execution.stop()`: the execution ended once its calls were done. */
  | { kind: 'done'; reason: 'execution_stopped' }
  /** The side's stop tool was called; `answer` is its `stopToolResponseProperty` or its result (DEF-6). */
  | { kind: 'done'; reason: 'stop_tool'; answer: string }
  /** KIND-7: the round limit refused the newest step's calls; they stay in the log, unexecuted. */
  | { kind: 'done'; reason: 'round_limit'; pendingToolCalls: ToolCall[] }
  /** A tool call waits for an answer; the answer resumes the turn (KIND-7). */
  | { kind: 'waiting' }
  | { kind: 'stopped' }
  /** A step, budget or quota limit ended the turn; `code` names which (default `step_limit`). */
  | { kind: 'limit'; message: string; code?: 'step_limit' | 'budget_exceeded' | 'context_overflow' | 'quota_exceeded' }
  /** The turn failed; `code` says how when it is more than a model or runtime failure. */
  | { kind: 'failed'; message: string; code?: 'response_format' };
