/**
 * The tool executor (EXE-1 to EXE-5). Each call of a model step passes through one pipeline,
 *
 *   resolve → parse → validate → guards (capability, permission, approval) → run (timeout, abort)
 *   → shape (ToolResult → envelope, attachments) → persist
 *
 * and calls run one after another in the order the model returned them (EXE-2). Whatever happens,
 * every call ends as a tool message persisted before the next call starts (EXE-3).
 */
import type { z } from 'zod';
import { MAX_TOOL_TIMEOUT_MS } from '../spec/define-tool.js';
import type { ExecutionState, Message, ThreadState, ToolCall, ToolResult } from '../spec/index.js';
import type { FrameSink } from './frames.js';
import type { ResolvedTool } from './registry.js';
import { shapeResult } from './result-shaping.js';
import type { ThreadFiles } from './thread-files.js';
import type { ThreadStore } from './thread-store.js';
import {
  interruptedMessage,
  invalidArgumentsMessage,
  malformedArgumentsMessage,
  STOPPED_MESSAGE,
  timeoutMessage,
  unknownToolMessage,
} from './tool-call-error.js';

/** Seed 002's default for built-in function tools (EXE-6). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

export interface ValidatedCall {
  call: ToolCall;
  tool: ResolvedTool;
  args: unknown;
}

export type GuardDecision = { action: 'allow' } | { action: 'deny'; reason: string };

/** A pre-execute check (capabilities, permissions, the watchdog, approvals). */
export type ToolGuard = (call: ValidatedCall) => GuardDecision | Promise<GuardDecision>;

export interface ExecutorDeps {
  tools: ReadonlyMap<string, ResolvedTool>;
  store: ThreadStore;
  files: ThreadFiles;
  emit: FrameSink;
  guards: readonly ToolGuard[];
  createState(execution: ExecutionState): ThreadState;
  /** The turn's signal: aborted when the thread is stopped. */
  signal: AbortSignal;
  stepCount: number;
  side: 'a' | 'b';
  /** Replaces secret values in anything that leaves the tool (EXE-8). */
  scrub(text: string): string;
  now(): number;
}

type Stage = { ok: true; value: ValidatedCall } | { ok: false; error: string };

function resolve(call: ToolCall, deps: ExecutorDeps): Stage {
  const tool = deps.tools.get(call.function.name);
  if (!tool) return { ok: false, error: unknownToolMessage(call.function.name, [...deps.tools.keys()]) };
  const raw = call.function.arguments.trim();
  let parsed: unknown;
  try {
    parsed = raw === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: malformedArgumentsMessage(tool.name, error) };
  }
  const schema = tool.definition.args as z.ZodObject | null;
  if (!schema) return { ok: true, value: { call, tool, args: undefined } };
  const result = schema.safeParse(parsed);
  if (!result.success) return { ok: false, error: invalidArgumentsMessage(tool.name, result.error) };
  return { ok: true, value: { call, tool, args: result.data } };
}

async function checkGuards(validated: ValidatedCall, deps: ExecutorDeps): Promise<string | null> {
  for (const guard of deps.guards) {
    const decision = await guard(validated);
    if (decision.action === 'deny') return decision.reason;
  }
  return null;
}

function isToolResult(value: unknown): value is ToolResult {
  const status = (value as ToolResult | null)?.status;
  return status === 'success' || status === 'error';
}

/** Runs the tool body under its timeout and the turn's signal; never throws. */
async function run(validated: ValidatedCall, deps: ExecutorDeps): Promise<ToolResult> {
  const { tool, call } = validated;
  const timeoutMs = Math.min(tool.definition.timeout ?? DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_TIMEOUT_MS);
  const controller = new AbortController();
  let abortReason: string | null = null;
  const abort = (reason: string) => {
    if (abortReason) return;
    abortReason = reason;
    controller.abort(new Error(reason));
  };
  const onTurnAbort = () => abort(STOPPED_MESSAGE);
  if (deps.signal.aborted) onTurnAbort();
  deps.signal.addEventListener('abort', onTurnAbort);
  const timer = setTimeout(() => abort(timeoutMessage(tool.name, timeoutMs)), timeoutMs);
  const aborted = new Promise<ToolResult>((resolveAbort) => {
    controller.signal.addEventListener('abort', () =>
      resolveAbort({ status: 'error', error: abortReason ?? STOPPED_MESSAGE }),
    );
  });
  const state = deps.createState({
    stepCount: deps.stepCount,
    currentSide: deps.side,
    abortSignal: controller.signal,
    toolCallId: call.id,
    toolName: tool.name,
  });
  try {
    // A tool that ignores its signal is abandoned: the loop moves on with the abort's error.
    const execute = tool.definition.execute as (state: ThreadState, args?: unknown) => Promise<unknown>;
    const body = Promise.resolve().then(() =>
      validated.args === undefined ? execute(state) : execute(state, validated.args),
    );
    const outcome = await Promise.race([body, aborted]);
    if (abortReason) return { status: 'error', error: abortReason };
    if (!isToolResult(outcome)) {
      return {
        status: 'error',
        error: `Tool "${tool.name}" returned an invalid result: expected { status: 'success' | 'error', ... }.`,
      };
    }
    return outcome;
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    return { status: 'error', error: err.message || String(error), stack: err.stack };
  } finally {
    clearTimeout(timer);
    deps.signal.removeEventListener('abort', onTurnAbort);
  }
}

/** The pipeline up to a ToolResult: every early exit is an error result, never an exception. */
async function outcomeOf(call: ToolCall, deps: ExecutorDeps): Promise<ToolResult> {
  const stage = resolve(call, deps);
  if (!stage.ok) return { status: 'error', error: stage.error };
  // EXE-5: once the thread is stopped, the step's remaining calls are answered, not started.
  if (deps.signal.aborted) return { status: 'error', error: STOPPED_MESSAGE };
  if (deps.store.toolStarted(call.id) && !stage.value.tool.definition.idempotent) {
    // THR-3: the thread restarted while this call ran; never run a non-idempotent tool twice.
    return { status: 'error', error: interruptedMessage(stage.value.tool.name) };
  }
  const denied = await checkGuards(stage.value, deps);
  if (denied !== null) return { status: 'error', error: denied };
  if (deps.signal.aborted) return { status: 'error', error: STOPPED_MESSAGE };
  deps.store.markToolStarted(call.id);
  deps.emit({
    type: 'tool_started',
    tool_call_id: call.id,
    name: call.function.name,
    arguments: stage.value.args ?? {},
  });
  return run(stage.value, deps);
}

async function executeOne(call: ToolCall, deps: ExecutorDeps): Promise<Message> {
  const started = deps.now();
  const result = await outcomeOf(call, deps);
  const shaped = await shapeResult(result, {
    files: deps.files,
    scrub: deps.scrub,
    durationMs: deps.now() - started,
  });
  const message = deps.store.append({
    role: 'tool',
    content: shaped.content,
    name: call.function.name,
    tool_call_id: call.id,
    tool_status: shaped.status,
    attachments: shaped.attachments.length > 0 ? shaped.attachments : null,
    envelope: shaped.envelope,
    metadata: shaped.stack ? { stack: shaped.stack } : null,
  });
  deps.emit({
    type: 'tool_result',
    tool_call_id: call.id,
    name: call.function.name,
    status: shaped.status,
    envelope: shaped.envelope,
  });
  deps.emit({ type: 'message', message });
  return message;
}

/** Executes a step's calls in model order, each persisted before the next begins. */
export async function executeToolCalls(calls: readonly ToolCall[], deps: ExecutorDeps): Promise<Message[]> {
  const messages: Message[] = [];
  for (const call of calls) {
    messages.push(await executeOne(call, deps));
  }
  return messages;
}
