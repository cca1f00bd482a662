/**
 * Runs a tool's code under its timeout and the turn's abort signal (EXE-5, EXE-6). Whatever the code
 * does — returns garbage, throws, hangs, ignores its signal — the caller gets a ToolResult, and once
 * the call has ended its state refuses every further change (fenced-state.ts). The code runs in its
 * call's network context (EXE-10): the global `fetch` it calls is the call's `state.fetch`.
 */

import type { ExecutionState, Message, ThreadState, ToolResult } from '../../spec/index.js';
import { CallPaused } from '../../spec/index.js';
import { describeIssues, MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';
import { runInToolCall, type ToolNetwork } from '../egress/index.js';
import { startHeartbeat } from './call-heartbeat.js';
import { type Fence, fencedState } from './fenced-state.js';
import { STOPPED_MESSAGE, timeoutMessage } from './tool-call-error.js';
import type { ValidatedCall } from './tool-call-validation.js';

/** Seed 002's default for built-in function tools (EXE-6). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** One execution of the loop, as its calls' ExecutionState shows it (turn/execution-flow.ts). */
export interface ExecutionFlow {
  readonly flowId: string;
  /** Model steps since the execution began, in all and per side. */
  steps(): { total: number; a: number; b: number };
  readonly stopped: boolean;
  readonly stoppedBy: 'a' | 'b' | undefined;
  forceTurn(side: 'a' | 'b'): void;
  stop(side: 'a' | 'b'): void;
}

/** The execution a batch of calls runs in: the flow, the prompts down to the running one, its history. */
export interface CallFlow {
  flow: ExecutionFlow;
  promptPath: readonly string[];
  /** The log as the running prompt's model sees it. */
  history(): readonly Message[];
}

export interface RunContext {
  /** The turn's signal: aborted when the thread is stopped, or interrupted by a new message; no call starts after. */
  signal: AbortSignal;
  /**
   * What cuts a call already running: the thread stopped. Absent, `signal`. An interrupted turn fires
   * `signal` only: a running call finishes and its result is stored (never cut between start and result).
   */
  toolSignal?: AbortSignal;
  /** A generator tool yielded a progress event (KIND-2), already validated. */
  onProgress?(validated: ValidatedCall, event: unknown): void;
  stepCount: number;
  side: 'a' | 'b';
  createState(execution: ExecutionState): ThreadState;
  /** The `invokeTool` of a running call (invoke-tool.ts); `signal` is the call's own. */
  invokeFor?(validated: ValidatedCall, signal: AbortSignal): ThreadState['invokeTool'];
  /** The tools offered beside the running one (ExecutionState.offeredTools). */
  offeredTools?: readonly string[];
  /** The deferred tools among them (ExecutionState.deferredTools). */
  deferredTools?: ExecutionState['deferredTools'];
  /** The execution the calls run in; absent (an engine test's direct call), a flow of their own. */
  flow?: CallFlow;
  /** How often a running call says it still runs (BEAT-1); none when unset. */
  heartbeatMs?: number;
  /** A call has run `elapsedMs` of its `timeoutMs` (BEAT-1). */
  onRunning?(validated: ValidatedCall, elapsedMs: number, timeoutMs: number): void;
}

/** A call whose invoked call waits for an answer (CallPaused): it runs again once answered. */
export interface PausedCall {
  paused: CallPaused;
}

export function isPaused(value: unknown): value is PausedCall {
  return typeof value === 'object' && value !== null && (value as PausedCall).paused instanceof CallPaused;
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, undefined> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncGenerator).next === 'function' &&
    typeof (value as AsyncGenerator)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Runs a generator tool to its end (KIND-2): each yield is checked against the tool's event schema
 * and reported at once; the return value is the result.
 */
async function drain(
  generator: AsyncGenerator<unknown, unknown, undefined>,
  validated: ValidatedCall,
  context: RunContext,
  signal: AbortSignal,
): Promise<unknown> {
  const schema = validated.tool.definition.eventSchema;
  try {
    for (;;) {
      const step = await generator.next();
      if (step.done) return step.value;
      if (signal.aborted) return null;
      let event = step.value;
      if (schema) {
        const checked = schema.safeParse(event);
        if (!checked.success) {
          throw new Error(
            `Tool "${validated.tool.name}" yielded an invalid progress event: ${describeIssues(checked.error)}`,
          );
        }
        event = checked.data;
      }
      context.onProgress?.(validated, event);
    }
  } finally {
    if (signal.aborted) void generator.return(undefined);
  }
}

function isToolResult(value: unknown): value is ToolResult {
  const status = (value as ToolResult | null)?.status;
  return status === 'success' || status === 'error';
}

/** The fenced state a running call's code receives; `signal` fires on stop or timeout. */
function callState(
  validated: ValidatedCall,
  context: RunContext,
  signal: AbortSignal,
  timeoutMs: number,
  fence: Fence,
): ThreadState {
  const { tool, call } = validated;
  const invokeTool = context.invokeFor?.(validated, signal);
  const base: CallExecution = {
    stepCount: context.stepCount,
    currentSide: context.side,
    abortSignal: signal,
    toolCallId: call.id,
    toolName: tool.name,
    deadline: Date.now() + timeoutMs,
    ...(context.offeredTools ? { offeredTools: context.offeredTools } : {}),
    ...(context.deferredTools ? { deferredTools: context.deferredTools } : {}),
  };
  return fencedState(
    context.createState(executionState(base, context.flow)),
    fence,
    tool.name,
    invokeTool ? { invokeTool } : {},
  );
}

/** What a call's execution holds of its own; the rest comes from the execution it runs in. */
export type CallExecution = Pick<
  ExecutionState,
  'stepCount' | 'currentSide' | 'abortSignal' | 'toolCallId' | 'toolName'
> &
  Partial<Pick<ExecutionState, 'deadline' | 'offeredTools' | 'deferredTools'>>;

/**
 * A call's ExecutionState: its own fields, and the execution's read when asked (steps, whether it
 * was stopped, the history), so a call sees what happened since it began. Without a flow (a call
 * run on its own), an execution of its own: its steps are the call's, nothing else can be forced.
 */
export function executionState(base: CallExecution, running?: CallFlow): ExecutionState {
  const side = base.currentSide;
  const own = { stopped: false, stoppedBy: undefined as 'a' | 'b' | undefined };
  const flowId = running?.flow.flowId ?? crypto.randomUUID();
  const steps = () =>
    running?.flow.steps() ?? {
      total: base.stepCount,
      a: side === 'a' ? base.stepCount : 0,
      b: side === 'b' ? base.stepCount : 0,
    };
  return {
    ...base,
    flowId,
    get stepCount() {
      return steps().total;
    },
    get sideAStepCount() {
      return steps().a;
    },
    get sideBStepCount() {
      return steps().b;
    },
    get stopped() {
      return running?.flow.stopped ?? own.stopped;
    },
    get stoppedBy() {
      return running ? running.flow.stoppedBy : own.stoppedBy;
    },
    get messageHistory() {
      return [...(running?.history() ?? [])];
    },
    promptPath: [...(running?.promptPath ?? [])],
    forceTurn(to: 'a' | 'b') {
      if (!running) throw new Error('forceTurn: this call runs outside a turn: there is no next turn to give');
      running.flow.forceTurn(to);
    },
    stop() {
      if (running) running.flow.stop(side);
      else {
        own.stopped = true;
        own.stoppedBy ??= side;
      }
    },
  };
}

/** Why a call that did not pause ended, as its fenced state tells later acts. */
function endedBecause(abortReason: string | null): string {
  if (abortReason === null) return 'it returned';
  return abortReason === STOPPED_MESSAGE ? 'it was stopped' : 'it timed out';
}

/**
 * Calls `body` with a ThreadState whose `execution.abortSignal` fires on stop or timeout. `accept`
 * lets a caller take values other than a ToolResult (an interaction request); they pass through.
 */
export async function runToolCode<T = ToolResult>(
  validated: ValidatedCall,
  context: RunContext,
  body: (state: ThreadState) => Promise<unknown>,
  accept: (value: unknown) => value is T = isToolResult as (value: unknown) => value is T,
): Promise<T | ToolResult | PausedCall> {
  const { tool } = validated;
  const timeoutMs = Math.min(tool.definition.timeout ?? DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_TIMEOUT_MS);
  const controller = new AbortController();
  let abortReason: string | null = null;
  let network: ToolNetwork | null = null;
  const abort = (reason: string) => {
    if (abortReason) return;
    abortReason = reason;
    // The tool's abort listeners run as part of its call: a request one makes is checked too.
    const fire = () => controller.abort(new Error(reason));
    if (network) runInToolCall(network, fire);
    else fire();
  };
  const onTurnAbort = () => abort(STOPPED_MESSAGE);
  const turnSignal = context.toolSignal ?? context.signal;
  if (turnSignal.aborted) onTurnAbort();
  turnSignal.addEventListener('abort', onTurnAbort);
  const timer = setTimeout(() => abort(timeoutMessage(tool.name, timeoutMs)), timeoutMs);
  const stopHeartbeat = startHeartbeat(context.heartbeatMs ?? 0, Date.now, (elapsedMs) => {
    if (!abortReason) context.onRunning?.(validated, elapsedMs, timeoutMs);
  });
  const aborted = new Promise<null>((resolveAbort) => {
    controller.signal.addEventListener('abort', () => resolveAbort(null));
  });
  const fence: Fence = { ended: null };
  const state = callState(validated, context, controller.signal, timeoutMs, fence);
  network = { tool: tool.name, fetch: (input, init) => state.fetch(input, init) };
  let paused = false;
  try {
    // A tool that ignores its signal is abandoned: the loop moves on with the abort's error. A
    // generator's body runs as `drain` asks for each value, so draining is part of the call too.
    const running = runInToolCall(network, () =>
      Promise.resolve()
        .then(() => body(state))
        .then((value) => (isAsyncGenerator(value) ? drain(value, validated, context, controller.signal) : value)),
    );
    const outcome = await Promise.race([running, aborted]);
    if (abortReason) return { status: 'error', error: abortReason };
    if (!accept(outcome) && !isToolResult(outcome)) {
      return {
        status: 'error',
        error: `Tool "${tool.name}" returned an invalid result: expected { status: 'success' | 'error', ... }.`,
      };
    }
    return outcome as T | ToolResult;
  } catch (error) {
    if (error instanceof CallPaused && !abortReason) {
      paused = true;
      return { paused: error };
    }
    const err = error instanceof Error ? error : new Error(String(error));
    return { status: 'error', error: err.message || String(error), stack: err.stack };
  } finally {
    fence.ended = paused ? 'it paused for an answer' : endedBecause(abortReason);
    clearTimeout(timer);
    stopHeartbeat();
    turnSignal.removeEventListener('abort', onTurnAbort);
  }
}
