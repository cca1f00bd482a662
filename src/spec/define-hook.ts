/**
 * `defineHook` (the specification's Hooks chapter): application code the runtime calls at twelve
 * points of a thread's life: when it is created, around every model request (the system text, the
 * history, the provider-shaped messages), around every stored message and every tool result. A hook
 * runs only where a prompt or an agent names its `id` in `hooks` (HOOK-2).
 */
import type { ModelMessage } from './define-model.js';
import { DefinitionError } from './definition-error.js';
import type { Message, MessageUpdates, ThreadState, ToolCall, ToolResult } from './types/index.js';

/** The twelve hook points, in the order a thread meets them. */
export const HOOK_NAMES = [
  'after_thread_created',
  'after_subagent_created',
  'after_system_message',
  'filter_messages',
  'prefilter_llm_history',
  'before_create_message',
  'after_create_message',
  'before_update_message',
  'after_update_message',
  'before_store_tool_result',
  'after_tool_call_success',
  'after_tool_call_failure',
] as const;

export type HookName = (typeof HOOK_NAMES)[number];

/** A message as the model is sent it, in the provider-neutral Chat Completions shape. */
export type LLMMessage = ModelMessage;

type Awaitable<T> = T | Promise<T>;

/** A transform hook's return: a new value, or nothing (`undefined`, `null`, no return) to keep the one given. */
// biome-ignore lint/suspicious/noConfusingVoidType: an execute with no return statement keeps the value.
type Kept<T> = Awaitable<T | null | undefined | void>;
/**
 * What each hook's `execute` is called with and may return. `state.execution` is set while a turn
 * runs and null at rest (`after_thread_created`). A transform hook that returns `undefined` (or
 * `null`, where null has no meaning of its own) keeps the value it was given.
 */
export interface HookSignatures {
  /** Once, when the thread's life starts, before its first model step; at rest. */
  after_thread_created: (state: ThreadState) => Awaitable<void>;
  /** On the parent, once a child thread it started exists. */
  after_subagent_created: (state: ThreadState, child: ThreadState) => Awaitable<void>;
  /** The rendered system text of one request; what it returns is sent instead, for that request only. */
  after_system_message: (state: ThreadState, systemMessage: string) => Kept<string>;
  /** The stored history a request is built from; what it returns is used for that request, storage untouched. */
  filter_messages: (state: ThreadState, messages: Message[]) => Kept<Message[]>;
  /** The provider-shaped messages (system text included) just before the request is sent. */
  prefilter_llm_history: (state: ThreadState, messages: LLMMessage[]) => Kept<LLMMessage[]>;
  /** A message about to be stored; the fields it returns are merged over it. */
  before_create_message: (state: ThreadState, message: Message) => Kept<Partial<Message>>;
  /** A message just stored. */
  after_create_message: (state: ThreadState, message: Message) => Awaitable<void>;
  /** The changes about to be applied to a stored message; what it returns is applied instead. */
  before_update_message: (state: ThreadState, messageId: string, updates: MessageUpdates) => Kept<MessageUpdates>;
  /** A message just updated, as it now stands. */
  after_update_message: (state: ThreadState, message: Message) => Awaitable<void>;
  /** A tool's result about to be stored as its tool message; what it returns is stored instead. */
  before_store_tool_result: (state: ThreadState, toolCall: ToolCall, toolResult: ToolResult) => Kept<ToolResult>;
  /** A successful call's result: returned as is, changed, or `null` to drop the call from the thread. */
  after_tool_call_success: (state: ThreadState, toolCall: ToolCall, toolResult: ToolResult) => Kept<ToolResult>;
  /** A failed call's result (status `error`): a success result recovers it, `null` drops the call. */
  after_tool_call_failure: (state: ThreadState, toolCall: ToolCall, toolResult: ToolResult) => Kept<ToolResult>;
}

export interface HookDefinition<K extends HookName = HookName> {
  /** The point the hook runs at. */
  hook: K;
  /** Unique across the application, snake_case; prompts and agents name it in `hooks`. */
  id: string;
  execute: HookSignatures[K];
}

/** What `defineHook` is given: the same three fields. */
export type HookDefinitionOptions<K extends HookName> = HookDefinition<K>;

/** Any hook, whatever its point. */
export type AnyHookDefinition = { [K in HookName]: HookDefinition<K> }[HookName];

/** snake_case: lowercase letters, digits and underscores, starting with a letter. */
export const HOOK_ID_PATTERN = /^[a-z][a-z0-9_]*$/;

const POINTS: ReadonlySet<string> = new Set(HOOK_NAMES);

/** Whether `name` is one of the twelve hook points. */
export function isHookName(name: unknown): name is HookName {
  return typeof name === 'string' && POINTS.has(name);
}

export function defineHook<K extends HookName>(options: HookDefinitionOptions<K>): HookDefinition<K> {
  const given = options as Partial<HookDefinition> | undefined;
  const id = typeof given?.id === 'string' ? given.id : '';
  const label = id ? `defineHook "${id}"` : 'defineHook';
  if (!isHookName(given?.hook)) {
    throw new DefinitionError(`${label}: hook must be one of ${HOOK_NAMES.join(', ')}`);
  }
  if (!HOOK_ID_PATTERN.test(id)) {
    throw new DefinitionError(
      `${label}: id must be snake_case (lowercase letters, digits and underscores, starting with a letter)`,
    );
  }
  if (typeof given?.execute !== 'function') throw new DefinitionError(`${label}: execute must be a function`);
  return { hook: options.hook, id, execute: options.execute };
}

/**
 * The `hooks` list of a prompt or an agent (HOOK-2): hook ids, each a string, none twice. Whether
 * each names a defined hook is checked when the application is assembled (the registry).
 */
export function hookIds(where: string, ids: unknown): readonly string[] {
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id !== '')) {
    throw new DefinitionError(`${where}: hooks must be a list of hook ids`);
  }
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new DefinitionError(`${where}: hooks names "${repeated}" twice`);
  return [...ids];
}
