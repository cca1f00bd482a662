/**
 * Tool context (KIND-6): each tool's local context, kept under the tool's name, and the thread's
 * shared context. Both live in the thread's store under the runtime's `context:` prefix (the values
 * tools set with `state.setValue` live under `user:`, so neither can overwrite the other), so they
 * persist across calls, turns and restarts. An update is a shallow merge, validated against the
 * running tool's schema exactly as it will read back from storage, and written only when valid.
 */
import type { z } from 'zod';
import {
  type ContextScope,
  ContextValidationError,
  type ExecutionContext,
  type ExecutionState,
  type SetContextOptions,
  type ThreadState,
  type ToolContext,
} from '../../spec/index.js';
import { describeIssues, issueLines } from '../../spec/internal.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';

const LOCAL_PREFIX = 'context:local:';
export const SHARED_CONTEXT_KEY = 'context:shared';

/** Whether a store key holds a tool context, local or shared: values tools wrote. */
export function isContextKey(key: string): boolean {
  return key.startsWith(LOCAL_PREFIX) || key === SHARED_CONTEXT_KEY;
}

/** The store key of a tool's local context. */
export function localContextKey(toolName: string): string {
  return LOCAL_PREFIX + toolName;
}

/** Whose context a ThreadState shows, and the schemas its updates must satisfy. */
export interface ContextBinding {
  /** The running tool; `null` outside a tool call, where there is no local context. */
  toolName: string | null;
  contextSchema: z.ZodType | null;
  sharedContextSchema: z.ZodType | null;
}

/** The binding of a call of `tool`, whose definition may declare context schemas. */
export function contextBinding(toolName: string, tool: ResolvedTool | undefined): ContextBinding {
  const definition = tool?.definition;
  return {
    toolName,
    contextSchema: (definition?.contextSchema as z.ZodType | null | undefined) ?? null,
    sharedContextSchema: (definition?.sharedContextSchema as z.ZodType | null | undefined) ?? null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function read(store: ThreadStore, key: string): Record<string, unknown> {
  const value = store.getValue(key);
  return isRecord(value) ? value : {};
}

/** A tool's stored local context (`{}` until it sets one). */
export function localContext(store: ThreadStore, toolName: string): Record<string, unknown> {
  return read(store, localContextKey(toolName));
}

/** The thread's stored shared context. */
export function sharedContext(store: ThreadStore): Record<string, unknown> {
  return read(store, SHARED_CONTEXT_KEY);
}

interface Target {
  key: string;
  schema: z.ZodType | null;
  /** What is updated, and against what, for error messages. */
  label: string;
  schemaName: string;
}

function target(binding: ContextBinding, scope: ContextScope): Target {
  const tool = binding.toolName;
  if (scope === 'shared') {
    const schemaName = tool ? `the sharedContextSchema of tool "${tool}"` : 'its schema';
    return { key: SHARED_CONTEXT_KEY, schema: binding.sharedContextSchema, label: 'the shared context', schemaName };
  }
  if (!tool) {
    throw new Error("setContext: the local context belongs to a running tool; outside one use { scope: 'shared' }");
  }
  const label = `the context of tool "${tool}"`;
  return { key: localContextKey(tool), schema: binding.contextSchema, label, schemaName: 'its contextSchema' };
}

/** The merged value as storage will return it: JSON drops `undefined` keys and functions. */
function asStored(value: Record<string, unknown>, label: string): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch (error) {
    throw new ContextValidationError(`setContext: ${label} must be JSON-serializable: ${(error as Error).message}`, [
      '(root)',
    ]);
  }
}

function validate(value: Record<string, unknown>, { schema, label, schemaName }: Target): void {
  if (!schema) return;
  const checked = schema.safeParse(value);
  if (checked.success) return;
  throw new ContextValidationError(
    `setContext: ${label} would not match ${schemaName} (${describeIssues(checked.error)}); nothing was stored`,
    issueLines(checked.error).map((problem) => problem.path),
  );
}

/**
 * Merges, validates and stores; synchronous between read and write, so concurrent updates never
 * interleave. Watchers see the value as stored (scrubbed of secrets), never the patch (CTX-1).
 */
export function updateContext(
  store: ThreadStore,
  binding: ContextBinding,
  patch: Record<string, unknown>,
  options: SetContextOptions = {},
  emit?: FrameSink,
): void {
  const scope = options.scope ?? 'local';
  if (scope !== 'local' && scope !== 'shared') {
    throw new TypeError(`setContext: scope must be 'local' or 'shared', not ${JSON.stringify(scope)}`);
  }
  if (!isRecord(patch)) throw new TypeError('setContext: the patch must be a plain object');
  const where = target(binding, scope);
  const next = asStored({ ...read(store, where.key), ...patch }, where.label);
  validate(next, where);
  store.setValue(where.key, next);
  emit?.({
    type: 'context_updated',
    tool: scope === 'shared' ? null : binding.toolName,
    scope,
    context: read(store, where.key),
  });
}

/** `state.context` and `state.setContext` over the store; both parts of `context` are live. */
export function contextApi(
  store: ThreadStore,
  binding: ContextBinding,
  emit?: FrameSink,
): { context: ToolContext; setContext: ThreadState['setContext'] } {
  const context: ToolContext = {
    get local() {
      return binding.toolName ? localContext(store, binding.toolName) : {};
    },
    get shared() {
      return sharedContext(store);
    },
  };
  return {
    context,
    async setContext(patch: Record<string, unknown>, options?: SetContextOptions) {
      updateContext(store, binding, patch, options, emit);
    },
  };
}

const SCRATCH = Symbol('scratch');
const RESERVED: ReadonlySet<PropertyKey> = new Set(['local', 'shared']);

function reserved(key: PropertyKey): never {
  throw new TypeError(
    `state.context.${String(key)} is reserved: it reads the tool context persisted in the thread; change it with setContext`,
  );
}

/** A turn's scratch record (`state.context`): no prototype, so no key a tool is given reaches Object's. */
export function scratchRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/**
 * `state.context`: the turn's scratch record, on which `local` and `shared` read the tool context
 * (listed as read-only keys of their own). Every other key reads and writes the scratch.
 */
export function executionContext(scratch: Record<string, unknown>, tool: ToolContext): ExecutionContext {
  return new Proxy(scratch, {
    get: (target, key) => (RESERVED.has(key) ? tool[key as 'local'] : key === SCRATCH ? target : target[key as string]),
    set: (target, key, value) => (RESERVED.has(key) ? reserved(key) : Reflect.set(target, key, value)),
    has: (target, key) => RESERVED.has(key) || Reflect.has(target, key),
    deleteProperty: (target, key) => (RESERVED.has(key) ? reserved(key) : Reflect.deleteProperty(target, key)),
    defineProperty: (target, key, descriptor) =>
      RESERVED.has(key) ? reserved(key) : Reflect.defineProperty(target, key, descriptor),
    ownKeys: (target) => ['local', 'shared', ...Reflect.ownKeys(target)],
    getOwnPropertyDescriptor: (target, key) =>
      RESERVED.has(key)
        ? { value: tool[key as 'local'], writable: false, enumerable: true, configurable: true }
        : Reflect.getOwnPropertyDescriptor(target, key),
  }) as ExecutionContext;
}

/** The scratch record under a `state.context`. */
export function scratchOf(context: unknown): Record<string, unknown> {
  return ((context as Record<PropertyKey, unknown> | null)?.[SCRATCH] as Record<string, unknown>) ?? scratchRecord();
}

/**
 * `state.context = value`: the scratch keys become `value`'s. Its `local` and `shared`, if any, are
 * left out (`{ ...state.context, seen: true }` carries them): only `setContext` changes those.
 */
export function replaceScratch(scratch: Record<string, unknown>, value: unknown): void {
  if (typeof value !== 'object' || value === null) throw new TypeError('state.context must be assigned an object');
  for (const key of Reflect.ownKeys(scratch)) delete scratch[key as string];
  for (const [key, item] of Object.entries(value)) if (!RESERVED.has(key)) scratch[key] = item;
}

/** `state` with its context bound to the running tool's schemas; everything else passes through. */
export function withToolContext(
  state: ThreadState,
  store: ThreadStore,
  binding: ContextBinding,
  emit: FrameSink,
): ThreadState {
  const api = contextApi(store, binding, emit);
  const context = executionContext(scratchOf(state.context), api.context);
  return new Proxy(state, {
    get(base, property) {
      if (property === 'context') return context;
      if (property === 'setContext') return api.setContext;
      return Reflect.get(base, property);
    },
  });
}

/** KIND-6: a ThreadState factory whose states see the running tool's own context, validated. */
export function contextualStates(
  createState: (execution: ExecutionState) => ThreadState,
  store: ThreadStore,
  tools: ReadonlyMap<string, ResolvedTool>,
  emit: FrameSink,
): (execution: ExecutionState) => ThreadState {
  return (execution) =>
    withToolContext(
      createState(execution),
      store,
      contextBinding(execution.toolName, tools.get(execution.toolName)),
      emit,
    );
}
