/**
 * The executor's contract: what a guard decides, what running calls needs, what a step's execution
 * gives back. Kept apart so the executor and `invokeTool` (which runs calls through it) share it.
 */
import type { ExecutionState, Message, ThreadState } from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { HookRunner } from '../hooks/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import type { ValidatedCall } from './tool-call-validation.js';
import type { RunContext } from './tool-runner.js';

/** `ask` pauses an interactive thread for an approval and denies at once on a headless one (PERM-2). */
export type GuardDecision =
  | { action: 'allow' }
  | { action: 'deny'; reason: string }
  | { action: 'ask'; reason: string };

/** A pre-execute check (capabilities, permissions, the watchdog, approvals). */
export type ToolGuard = (call: ValidatedCall) => GuardDecision | Promise<GuardDecision>;

export interface ExecutorDeps extends RunContext {
  tools: ReadonlyMap<string, ResolvedTool>;
  store: ThreadStore;
  files: ThreadFiles;
  emit: FrameSink;
  guards: readonly ToolGuard[];
  createState(execution: ExecutionState): ThreadState;
  /** Replaces secret values in anything that leaves the tool (EXE-8). */
  scrub(text: string): string;
  now(): number;
  /** The active prompt's hooks (HOOK-8, HOOK-9): around each result and its stored message; none when null. */
  hooks?: HookRunner | null;
  /** A human allowed a call "always" (PERM-2): the permission layer remembers it for the thread. */
  onAlwaysAllowed?(call: ValidatedCall): void | Promise<void>;
}

export interface ExecutedStep {
  messages: Message[];
  /** A call waits for an interaction; it and the calls after it stay pending. */
  waiting: boolean;
}
