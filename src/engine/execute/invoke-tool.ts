/**
 * `state.invokeTool` (THR-7): a running call calls another tool of its agent. The invoked call is a
 * tool call of its own, stored one level below the calling call's step (`metadata.invoked_by`), and
 * it takes the executor's whole pipeline: validation, capabilities, permission rules, the watchdog,
 * approval, its timeout, truncation and a persisted tool message, streamed like any call. Nothing a
 * tool invokes bypasses a rule.
 *
 * Invoked calls are numbered in the order the calling call makes them (`<call id>.<n>`). When one
 * waits for an answer, `CallPaused` ends the calling call, which runs again from its start once the
 * answer is in: a numbered call already in the log then returns its recorded result instead of
 * running twice, and a different tool or different arguments at that number is a replay divergence.
 */
import type { Message, ThreadState, ToolCall, ToolResult } from '../../spec/index.js';
import { CallPaused } from '../../spec/index.js';
import { NestedStore } from '../ports/index.js';
import type { ExecutedStep, ExecutorDeps } from './executor-types.js';
import type { ValidatedCall } from './tool-call-validation.js';

type ExecuteCalls = (calls: readonly ToolCall[], deps: ExecutorDeps) => Promise<ExecutedStep>;

/** How deep invoked calls may nest: a tool invoking a tool that invokes it would otherwise recurse without end. */
export const MAX_INVOKE_DEPTH = 4;

/** The step whose tool calls include `callId`. */
export function callingStep(log: readonly Message[], callId: string): Message | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.role === 'assistant' && message.tool_calls?.some((call) => call.id === callId)) return message;
  }
  return undefined;
}

/** The text an envelope's data stands for (ENV-1): the text, a truncated result's head, or the JSON. */
function dataText(data: unknown, truncated: boolean): string {
  if (typeof data === 'string') return data;
  const head = (data as { head?: unknown } | null)?.head;
  if (truncated && typeof head === 'string') return head;
  return JSON.stringify(data);
}

/** The whole text of a stored result: the sidecar when the stored text was cut (LOCK-6). */
async function resultText(message: Message, deps: ExecutorDeps): Promise<string> {
  const envelope = message.envelope;
  const path = envelope?.metadata.output_path;
  if (path) {
    const bytes = await deps.files.read(path);
    if (bytes) return new TextDecoder().decode(bytes);
  }
  if (envelope?.type === 'output') return dataText(envelope.data, envelope.metadata.truncated === true);
  if (envelope?.type === 'error') return envelope.error_text;
  return message.content ?? '';
}

/** What the call came to, as the specification's ToolResult: the result's text, or the error's. */
async function outcomeOf(message: Message, deps: ExecutorDeps): Promise<ToolResult> {
  const text = await resultText(message, deps);
  return message.tool_status === 'error' ? { status: 'error', error: text } : { status: 'success', result: text };
}

/** A call that cannot be made answers as a failed one: the calling tool decides what follows. */
function refused(error: string): ToolResult {
  return { status: 'error', error };
}

function recordedCall(log: readonly Message[], id: string): ToolCall | undefined {
  for (const message of log) {
    const call = message.tool_calls?.find((candidate) => candidate.id === id);
    if (call) return call;
  }
  return undefined;
}

/**
 * The `invokeTool` of one running call. `signal` is the calling call's: a stop or its timeout ends
 * the calls it invoked too. It resolves a ToolResult, a failure included, as the specification
 * says; it throws only `CallPaused`, a replay divergence, and a broken log.
 */
export function toolInvoker(
  outer: ValidatedCall,
  deps: ExecutorDeps,
  signal: AbortSignal,
  executeToolCalls: ExecuteCalls,
): ThreadState['invokeTool'] {
  let made = 0;
  return async (name, args = {}) => {
    const number = ++made;
    if (name === outer.tool.name) return refused(`tool "${name}" cannot invoke itself`);
    const step = callingStep(deps.store.messages(), outer.call.id);
    if (!step) throw new Error(`tool call ${outer.call.id} has no calling step`);
    if (step.depth + 1 > MAX_INVOKE_DEPTH) {
      return refused(`invoked tool calls nest at most ${MAX_INVOKE_DEPTH} levels deep`);
    }
    const store = new NestedStore(deps.store, {
      depth: step.depth + 1,
      parentId: step.id,
      marker: 'invoked_by',
      call: outer.call.id,
      headless: false,
    });
    const id = `${outer.call.id}.${number}`;
    const call: ToolCall = { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
    const recorded = recordedCall(store.messages(), id);
    if (recorded) {
      if (recorded.function.name !== name || recorded.function.arguments !== call.function.arguments) {
        throw new Error(
          `replay diverged at call ${number}: it was ${recorded.function.name}(${recorded.function.arguments}) before the pause, now ${name}(${call.function.arguments}); the calls a paused program makes must not change`,
        );
      }
      const result = store.messages().find((message) => message.role === 'tool' && message.tool_call_id === id);
      if (result) return outcomeOf(result, deps);
    } else {
      const message = store.append({ role: 'assistant', content: null, tool_calls: [call] });
      deps.emit({ type: 'message', message });
    }
    const executed = await executeToolCalls([call], { ...deps, store, signal, toolSignal: signal });
    if (executed.waiting) {
      const wait = store.interactions(id).find((interaction) => !interaction.answered);
      throw new CallPaused(id, wait?.kind ?? 'answer');
    }
    const message = executed.messages[0];
    if (!message) throw new Error(`tool call ${id} ended without a result`);
    return outcomeOf(message, deps);
  };
}
