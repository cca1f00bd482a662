/**
 * The tool executor (EXE-1 to EXE-5). Each call of a model step passes through one pipeline,
 *
 *   validate → stop / restart checks → guards (capability, permission, watchdog, approval)
 *   → run under timeout and abort, or wait for an interaction → shape → persist
 *
 * and calls run one after another in the order the model returned them (EXE-2). Every call ends as
 * a tool message persisted before the next call starts (EXE-3), unless it waits for a human or a
 * client: then the step pauses there, its wait stored, until the answer resumes it (KIND-7). A call
 * whose invoked call waits (invoke-tool.ts) pauses the same way and runs again once answered.
 */
import type { Message, ThreadState, ToolCall, ToolResult } from '../../spec/index.js';
import {
  type ApprovalAnswer,
  HUMAN_INTERACTIONS,
  type Interaction,
  type InteractionKind,
  type InteractionRequest,
  isInteractionRequest,
} from '../../spec/internal.js';
import { truncationLimits } from '../files/index.js';
import { appendWithHooks, resultThroughHooks } from '../hooks/index.js';
import type { NewMessage } from '../ports/index.js';
import { type Span, withSpan } from '../tracing/index.js';
import { runningLine } from './call-heartbeat.js';
import { endCallSpan, startCallSpan } from './call-span.js';
import { credentialHint, STORE_SECRET } from './credential-hint.js';
import type { ExecutedStep, ExecutorDeps } from './executor-types.js';
import { toolInvoker } from './invoke-tool.js';
import { checkOutput } from './output-check.js';
import { readsOutsideFile } from './outside-files.js';
import { shapeResult } from './result-shaping.js';
import { abortedCallMessage, headlessMessage, interruptedMessage, rejectedMessage } from './tool-call-error.js';
import { type ValidatedCall, validateCall } from './tool-call-validation.js';
import { isPaused, runToolCode } from './tool-runner.js';
import { markUntrusted } from './untrusted-output.js';

export type { ExecutedStep, ExecutorDeps, GuardDecision, ToolGuard } from './executor-types.js';
export type { ValidatedCall } from './tool-call-validation.js';
export { DEFAULT_TOOL_TIMEOUT_MS } from './tool-runner.js';

type Outcome = { type: 'result'; result: ToolResult } | { type: 'wait' };

const fails = (error: string): Outcome => ({ type: 'result', result: { status: 'error', error } });

/** Stores a new wait and tells clients what the call waits for; returns it, answered if the answer came first. */
function wait(validated: ValidatedCall, request: InteractionRequest, deps: ExecutorDeps): Interaction {
  const { call, tool } = validated;
  const stored = deps.store.openInteraction({ toolCallId: call.id, toolName: tool.name, ...request });
  deps.emit({ type: 'waiting', tool_call_id: call.id, name: tool.name, kind: request.kind, payload: request.payload });
  return stored;
}

function find(waits: readonly Interaction[], kind: (kind: InteractionKind) => boolean): Interaction | undefined {
  return waits.find((interaction) => kind(interaction.kind));
}

/** Runs the guards; null when the call may proceed. An approval answers every `ask` of its call. */
async function authorize(validated: ValidatedCall, waits: readonly Interaction[], deps: ExecutorDeps) {
  const approval = find(waits, (kind) => kind === 'approval');
  for (const guard of deps.guards) {
    const decision = await guard(validated);
    if (decision.action === 'allow') continue;
    if (decision.action === 'deny') return fails(decision.reason);
    if (deps.store.info.headless) return fails(headlessMessage('approval', decision.reason));
    if (!approval) {
      wait(
        validated,
        { kind: 'approval', payload: { reason: decision.reason, arguments: validated.args ?? {} } },
        deps,
      );
      return { type: 'wait' } as const;
    }
    if (!approval.answered) return { type: 'wait' } as const;
    const answer = approval.answer as ApprovalAnswer;
    if (!answer.approved) return fails(rejectedMessage(validated.tool.name, answer.reason));
    if (answer.always) await deps.onAlwaysAllowed?.(validated);
  }
  return null;
}

function started(validated: ValidatedCall, deps: ExecutorDeps): void {
  // THR-3: the journal only keeps a tool that must not run twice from running again after a
  // restart; an idempotent tool is run again anyway, so its calls cost no row.
  if (!validated.tool.definition.idempotent) deps.store.markToolStarted(validated.call.id);
  deps.emit({
    type: 'tool_started',
    tool_call_id: validated.call.id,
    name: validated.tool.name,
    kind: validated.tool.definition.acpKind,
    arguments: validated.args ?? {},
  });
}

/**
 * Runs the tool's code; a call paused by a call it invoked waits, and is no longer marked started: it
 * runs again from its start once answered (THR-3's never-twice rule is kept by replaying what it invoked).
 */
async function run<T = ToolResult>(
  validated: ValidatedCall,
  deps: ExecutorDeps,
  body: (state: ThreadState) => Promise<unknown>,
  accept?: (value: unknown) => value is T,
): Promise<T | ToolResult | { wait: true }> {
  const outcome = await runToolCode(validated, deps, body, accept);
  if (!isPaused(outcome)) return outcome;
  deps.store.clearToolStarted(validated.call.id);
  return { wait: true };
}

const waits = (value: unknown): value is { wait: true } => (value as { wait?: unknown } | null)?.wait === true;

/** Runs the tool: its body, or the begin / complete halves of an interactive tool. */
async function execute(validated: ValidatedCall, waitsOf: readonly Interaction[], deps: ExecutorDeps) {
  const { definition } = validated.tool;
  const args = validated.args;
  const hooks = definition.interaction;
  const answered = find(waitsOf, (kind) => kind !== 'approval');
  const outcome = (result: ToolResult | { wait: true }): Outcome =>
    waits(result) ? { type: 'wait' } : { type: 'result', result };
  if (hooks && answered) {
    if (!answered.answered) return { type: 'wait' } as const;
    return outcome(await run(validated, deps, (state) => hooks.complete(state, args, answered.answer)));
  }
  if (deps.store.toolStarted(validated.call.id) && !definition.idempotent) {
    // THR-3: the thread restarted while this call ran; never run a non-idempotent tool twice.
    return fails(interruptedMessage(validated.tool.name));
  }
  started(validated, deps);
  if (!hooks) {
    const body = definition.execute as (state: ThreadState, args?: unknown) => Promise<unknown>;
    const ran = await run(validated, deps, (state) => (args === undefined ? body(state) : body(state, args)));
    // OUT-1: a result its tool's output schema refuses is an error result naming the fields.
    return outcome(waits(ran) ? ran : (checkOutput(definition.outputSchema, ran) as ToolResult));
  }
  const begun = await run(validated, deps, (state) => hooks.begin(state, args), isRequest);
  if (waits(begun)) return { type: 'wait' } as const;
  if (!isRequest(begun)) return { type: 'result', result: begun } as const;
  // LOCK-1, PERM-2: nobody can answer on a headless thread, so the call fails at once.
  if (deps.store.info.headless && HUMAN_INTERACTIONS.includes(begun.kind)) return fails(headlessMessage(begun.kind));
  const stored = wait(validated, begun, deps);
  if (!stored.answered) return { type: 'wait' } as const;
  return outcome(await run(validated, deps, (state) => hooks.complete(state, args, stored.answer)));
}

function isRequest(value: unknown): value is InteractionRequest {
  return typeof value === 'object' && value !== null && isInteractionRequest(value as InteractionRequest);
}

/** The pipeline up to a ToolResult or a wait: every early exit is an error result, never an exception. */
type Prepared = Outcome | { type: 'run'; validated: ValidatedCall; waits: readonly Interaction[] };

/** Everything before the tool's code: every early exit is an error result or a wait, never an exception. */
async function prepare(call: ToolCall, deps: ExecutorDeps): Promise<Prepared> {
  const validation = validateCall(call, deps.tools);
  if (!validation.ok) return fails(validation.error);
  // EXE-5: once the thread is stopped or interrupted, the step's remaining calls are answered, not started.
  if (deps.signal.aborted) return fails(abortedCallMessage(deps.signal));
  const waits = deps.store.interactions(call.id);
  const denied = await authorize(validation.value, waits, deps);
  if (denied) return denied;
  if (deps.signal.aborted) return fails(abortedCallMessage(deps.signal));
  return { type: 'run', validated: validation.value, waits };
}

/**
 * When a call began. A call that waited for its own answer (a subagent, a person, a client) began
 * when that wait was opened, in an earlier step: its duration is the whole wait, not the last step's
 * millisecond of completing it. An approval is not counted: the tool had not begun while it waited.
 */
function callStart(step: Prepared | undefined, stepStartedAt: number): number {
  if (step?.type !== 'run') return stepStartedAt;
  const opened = step.waits.filter((wait) => wait.kind !== 'approval').map((wait) => wait.createdAt);
  return Math.min(stepStartedAt, ...opened);
}

/** Adjacent calls that may run together (EXE-2): the next call alone, or a run of concurrent tools. */
function nextGroup(calls: readonly ToolCall[], from: number, deps: ExecutorDeps): readonly ToolCall[] {
  const parallel = (call: ToolCall | undefined) => {
    const definition = call ? deps.tools.get(call.function.name)?.definition : undefined;
    return definition?.concurrent === true && definition.interaction === undefined;
  };
  let end = from + 1;
  if (parallel(calls[from])) while (end < calls.length && parallel(calls[end])) end++;
  return calls.slice(from, end);
}

/** IDN-10: how the call's approval was answered and by whom, when a person approved or refused it. */
function approvalOf(waits: readonly Interaction[]): Record<string, unknown> | null {
  const wait = waits.find((candidate) => candidate.kind === 'approval' && candidate.answered);
  const answer = wait?.answer as (ApprovalAnswer & { answered_by?: unknown }) | undefined;
  if (!answer || typeof answer.approved !== 'boolean') return null;
  return { approved: answer.approved, ...(answer.answered_by ? { answered_by: answer.answered_by } : {}) };
}

function resultMetadata(stack: string | undefined, approval: Record<string, unknown> | null) {
  if (!stack && !approval) return null;
  return { ...(stack ? { stack } : {}), ...(approval ? { approval } : {}) };
}

async function persist(
  call: ToolCall,
  given: ToolResult,
  startedAt: number,
  progress: readonly unknown[],
  deps: ExecutorDeps,
): Promise<Message> {
  let result = given;
  if (deps.hooks) {
    // HOOK-9: the hooks see the result first; one may drop the call instead.
    const kept = await resultThroughHooks(deps.hooks, call, given, deps.store, deps.emit);
    if ('dropped' in kept) return kept.dropped;
    result = kept;
  }
  const definition = deps.tools.get(call.function.name)?.definition;
  const shaped = await shapeResult(result, {
    files: deps.files,
    scrub: deps.scrub,
    durationMs: deps.now() - startedAt,
    truncation: {
      toolName: call.function.name,
      toolCallId: call.id,
      limits: truncationLimits(definition),
    },
  });
  // CRED-1: a refused credential's error names the variables store_secret should refresh.
  if (shaped.status === 'error') {
    const offersStoreSecret = deps.tools.has(STORE_SECRET);
    const hint = credentialHint(definition, shaped.content, {
      store: deps.store,
      toolCallId: call.id,
      offersStoreSecret,
    });
    if (hint) shaped.content = `${shaped.content}\n${hint}`;
  }
  // INJ-1: what came from outside reaches the model delimited, as data.
  const outside =
    shaped.status === 'success' &&
    (definition?.untrustedOutput || readsOutsideFile(deps.store, definition, call.function.arguments));
  if (outside) {
    shaped.content = markUntrusted(shaped.content, call.function.name);
  }
  // KIND-2: the stored result keeps the progress events that preceded it.
  if (progress.length > 0) shaped.envelope.metadata.progress = JSON.parse(deps.scrub(JSON.stringify(progress)));
  const draft: NewMessage = {
    role: 'tool',
    content: shaped.content,
    name: call.function.name,
    tool_call_id: call.id,
    tool_status: shaped.status,
    attachments: shaped.attachments.length > 0 ? shaped.attachments : null,
    envelope: shaped.envelope,
    metadata: resultMetadata(shaped.stack, approvalOf(deps.store.interactions(call.id))),
  };
  const message = deps.hooks ? await appendWithHooks(deps.store, deps.hooks, draft) : deps.store.append(draft);
  deps.emit({
    type: 'tool_result',
    tool_call_id: call.id,
    name: call.function.name,
    kind: deps.tools.get(call.function.name)?.definition.acpKind ?? 'other',
    status: shaped.status,
    envelope: shaped.envelope,
  });
  deps.emit({ type: 'message', message });
  return message;
}

/**
 * Runs one group of calls (one call, or adjacent concurrent ones): checked one by one, run together,
 * persisted in call order onto `messages`. True when a call waits for an answer: the group stops there.
 */
async function runGroup(
  group: readonly ToolCall[],
  running: ExecutorDeps,
  progress: ReadonlyMap<string, unknown[]>,
  messages: Message[],
): Promise<boolean> {
  const startedAt = running.now();
  const prepared: Prepared[] = [];
  // TRACE-3: each call runs in its span, so what it calls (tools, children, MCP servers) nests beneath.
  const spans = group.map(startCallSpan);
  for (const [offset, call] of group.entries()) {
    const step = await withSpan(spans[offset] as Span, () => prepare(call, running));
    prepared.push(step);
    if (step.type === 'wait') break;
  }
  const outcomes = await Promise.all(
    prepared.map((step, offset) =>
      step.type === 'run' ? withSpan(spans[offset] as Span, () => execute(step.validated, step.waits, running)) : step,
    ),
  );
  for (const [offset, outcome] of outcomes.entries()) {
    const span = spans[offset] as Span;
    if (outcome.type === 'wait') {
      for (const waiting of spans.slice(offset)) endCallSpan(waiting, 'waiting');
      return true;
    }
    const call = group[offset] as ToolCall;
    const began = callStart(prepared[offset], startedAt);
    const message = await withSpan(span, () =>
      persist(call, outcome.result, began, progress.get(call.id) ?? [], running),
    );
    endCallSpan(span, message);
    messages.push(message);
  }
  return false;
}

/**
 * Executes a step's calls in model order, each persisted before the next begins. Adjacent calls of
 * tools declared `concurrent` are checked one by one, then run together, and persisted in call order.
 */
export async function executeToolCalls(calls: readonly ToolCall[], deps: ExecutorDeps): Promise<ExecutedStep> {
  const messages: Message[] = [];
  const progress = new Map<string, unknown[]>();
  const running: ExecutorDeps = {
    ...deps,
    onProgress(validated, event) {
      progress.set(validated.call.id, [...(progress.get(validated.call.id) ?? []), event]);
      deps.emit({ type: 'tool_progress', tool_call_id: validated.call.id, name: validated.tool.name, event });
    },
    onRunning(validated, elapsedMs, timeoutMs) {
      const { call, tool } = validated;
      console.log(runningLine(tool.name, elapsedMs, timeoutMs));
      deps.emit({
        type: 'tool_running',
        tool_call_id: call.id,
        name: tool.name,
        elapsed_ms: elapsedMs,
        timeout_ms: timeoutMs,
      });
    },
    invokeFor: (validated, signal) => toolInvoker(validated, running, signal, executeToolCalls),
    offeredTools: [...deps.tools.keys()],
    deferredTools: [...deps.tools.values()]
      .filter((tool) => tool.definition.deferred)
      .map((tool) => ({ name: tool.name, description: tool.definition.description })),
  };
  for (let index = 0; index < calls.length; ) {
    const group = nextGroup(calls, index, running);
    if (await runGroup(group, running, progress, messages)) return { messages, waiting: true };
    index += group.length;
  }
  return { messages, waiting: false };
}
