/**
 * The hook runner (HOOK-4 to HOOK-8): runs the hooks of one point in the order the active prompt's
 * (or agent's) `hooks` list names them, each transform hook given the previous one's output. A hook
 * that throws, runs past its time limit or returns the wrong type is skipped: the value it was given
 * carries on, the turn goes on, and the failure is reported with the hook's id and point, scrubbed
 * of secrets (a `hook_failed` event frame and a log line). Only `propagate` (the path of
 * `state.injectMessage`) turns a failure into a rejection instead.
 *
 * With no hook declared for a point, a call costs one map lookup: nothing is built, nothing awaited.
 */
import type {
  AnyHookDefinition,
  ExecutionState,
  HookName,
  LLMMessage,
  Message,
  ThreadState,
  ToolCall,
  ToolResult,
} from '../../spec/index.js';
import type { FrameSink } from '../ports/index.js';

/** What `updateMessage` takes (the specification's MessageUpdates). */
type MessageUpdates = Parameters<ThreadState['updateMessage']>[1];

import type { HooksByPoint } from '../registry/index.js';
import { ATTR, activeSpan, spanNames, withSpan } from '../tracing/index.js';
import {
  type Reader,
  readMessagePatch,
  readMessages,
  readModelMessages,
  readNothing,
  readString,
  readToolOutcome,
  readToolResult,
  readUpdates,
} from './hook-returns.js';

/** The ThreadState one hook run receives, and how to fence it once the run is over. */
export interface HookStateLease {
  state: ThreadState;
  /** Runs the hook's code in its own network context: the global `fetch` is its `state.fetch`. */
  enter<T>(run: () => T): T;
  end(reason: string): void;
}

export interface HookSetup {
  /** The hooks of the active prompt (or agent), by point (Registry.hooksFor). */
  hooks: HooksByPoint;
  /** A hook run's state: gated by the thread's rules (HOOK-10), fenced once the run ends. */
  state(hook: AnyHookDefinition, execution: ExecutionState | null): HookStateLease;
  /** The execution the hooks see: set while a turn runs, null at rest. */
  execution(): ExecutionState | null;
  emit: FrameSink;
  scrub(text: string): string;
  timeoutMs: number;
}

/** A hook's failure on the `state.injectMessage` path: the caller's promise rejects with it. */
export class HookFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HookFailed';
  }
}

/** The tool-call hooks' `null`: the call is dropped from history and storage. */
export const DROPPED = Symbol('dropped');

type Ran = { returned: unknown } | { error: string };

export class HookRunner {
  constructor(private readonly setup: HookSetup) {}

  /** Whether any hook runs at this point. */
  has(point: HookName): boolean {
    return (this.setup.hooks.get(point)?.length ?? 0) > 0;
  }

  afterThreadCreated(): Promise<void> {
    return this.notify('after_thread_created', []);
  }

  afterSubagentCreated(child: ThreadState): Promise<void> {
    return this.notify('after_subagent_created', [child]);
  }

  systemMessage(text: string): Promise<string> {
    return this.chain('after_system_message', text, (value) => [value], readString);
  }

  filterMessages(messages: Message[]): Promise<Message[]> {
    return this.chain('filter_messages', messages, (value) => [[...value]], readMessages);
  }

  prefilterHistory(messages: LLMMessage[]): Promise<LLMMessage[]> {
    return this.chain('prefilter_llm_history', messages, (value) => [[...value]], readModelMessages);
  }

  /** The message to store, the hooks' changes merged over it; `propagate` rejects on a failure instead of skipping. */
  beforeCreateMessage(message: Message, propagate = false): Promise<Message> {
    return this.chain('before_create_message', message, (value) => [{ ...value }], readMessagePatch, propagate);
  }

  afterCreateMessage(message: Message): Promise<void> {
    return this.notify('after_create_message', [message]);
  }

  beforeUpdateMessage(messageId: string, updates: MessageUpdates): Promise<MessageUpdates> {
    return this.chain('before_update_message', updates, (value) => [messageId, { ...value }], readUpdates);
  }

  afterUpdateMessage(message: Message): Promise<void> {
    return this.notify('after_update_message', [message]);
  }

  beforeStoreToolResult(call: ToolCall, result: ToolResult): Promise<ToolResult> {
    return this.chain('before_store_tool_result', result, (value) => [call, { ...value }], readToolResult);
  }

  /** `after_tool_call_success` or `_failure` by the result's status; DROPPED when a hook returned null. */
  afterToolCall(call: ToolCall, result: ToolResult): Promise<ToolResult | typeof DROPPED> {
    const point = result.status === 'success' ? 'after_tool_call_success' : 'after_tool_call_failure';
    return this.chain(point, result, (value) => [call, { ...value }], readToolOutcome, false, true);
  }

  private async notify(point: HookName, args: unknown[]): Promise<void> {
    await this.chain(point, null, () => args, readNothing);
  }

  /**
   * Runs the point's hooks in order, each given the value the previous one left. A failure skips
   * the hook (or rejects, with `propagate`); `drops` lets a hook's null end the chain with DROPPED.
   */
  private async chain<T>(
    point: HookName,
    initial: T,
    args: (value: T) => unknown[],
    read: Reader<T>,
    propagate = false,
    drops = false,
  ): Promise<T> {
    const hooks = this.setup.hooks.get(point);
    if (!hooks || hooks.length === 0) return initial;
    let value = initial;
    for (const hook of hooks) {
      // TRACE-3: each hook run is a span of whatever ran the point.
      const span = activeSpan().child(spanNames.hook(hook.id), 'internal', { [ATTR.hookPoint]: point });
      const ran = await withSpan(span, () => this.runOne(hook, args(value)));
      if ('error' in ran) span.fail(ran.error, 'hook_failed');
      span.end();
      const reading = 'error' in ran ? { kind: 'malformed' as const, problem: ran.error } : read(ran.returned, value);
      if (reading.kind === 'value') {
        value = reading.value;
        continue;
      }
      if (reading.kind === 'drop' && drops) return DROPPED as T;
      const problem = reading.kind === 'drop' ? 'it returned null' : reading.problem;
      const line = this.setup.scrub(`hook "${hook.id}" (${point}) failed: ${problem}`);
      if (propagate) throw new HookFailed(line);
      this.report(hook, point, line);
    }
    return value;
  }

  /** One hook under its time limit (HOOK-5); its state fenced once it has answered or run out of time. */
  private async runOne(hook: AnyHookDefinition, args: unknown[]): Promise<Ran> {
    const lease = this.setup.state(hook, this.setup.execution());
    const execute = hook.execute as (state: ThreadState, ...rest: unknown[]) => unknown;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = this.setup.timeoutMs;
    const timedOut = new Promise<Ran>((resolve) => {
      timer = setTimeout(() => resolve({ error: `it ran longer than its limit of ${limit} ms` }), limit);
    });
    const ran = (async (): Promise<Ran> => {
      try {
        return { returned: await lease.enter(() => execute(lease.state, ...args)) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    })();
    try {
      return await Promise.race([ran, timedOut]);
    } finally {
      clearTimeout(timer);
      lease.end(`hook "${hook.id}" has returned or run out of time`);
    }
  }

  /** HOOK-7: the failure, already scrubbed, told to clients and the log; never the hook's raw error. */
  private report(hook: AnyHookDefinition, point: HookName, line: string): void {
    console.warn(`[standard-agents] ${line}`);
    this.setup.emit({ type: 'event', event: 'hook_failed', data: { hook: hook.id, point, error: line } });
  }
}
