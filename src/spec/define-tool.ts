/**
 * `defineTool` (DEF-1, DEF-3): a function tool is a description, an optional Zod argument schema and
 * an `execute` function. The tool's name is the key it is registered under (DEF-4).
 */
import type { z } from 'zod';
import { DefinitionError, deferredDefinition, toolDefinitionLabel } from './definition-error.js';
import { assertAllowedSchema } from './schema.js';
import {
  ACP_TOOL_KINDS,
  type AcpToolKind,
  type RequirementSet,
  type ThreadState,
  type ToolAccess,
  type ToolContext,
  type ToolInteraction,
  type ToolResult,
  type VariableDefinition,
} from './types/index.js';
import { secretDefaultProblem, variablesFromTenvs } from './variables.js';

/**
 * The hard ceiling for any tool's timeout (EXE-6): a turn runs inside a Durable Object alarm, which
 * may run for 15 minutes; a tool must end well before that so its result is persisted.
 */
export const MAX_TOOL_TIMEOUT_MS = 10 * 60_000;

/** Seed 003's recommended cap on a tool's output before it is cut to a head plus a sidecar (LOCK-6). */
export const DEFAULT_MAX_OUTPUT_BYTES = 200 * 1024;

export type ToolArgs = z.ZodObject;
export type ToolTenvs = z.ZodObject;

/**
 * What `execute` returns: a result, or (a generator tool, KIND-2) an async generator whose yields
 * are progress events streamed as they happen and whose return value is the result.
 */
export type ToolReturn<Result = string> =
  | Promise<ToolResult<Result>>
  | AsyncGenerator<unknown, ToolResult<Result>, undefined>;

/** A tool's output schema (OUT-1): a Zod schema its successful results are checked against. */
export type ToolOutputSchema = z.ZodType;

/** What `result` may be: text, or for a tool with an output schema the value itself (or its JSON). */
type ResultOf<Output extends ToolOutputSchema | null> = Output extends ToolOutputSchema
  ? z.input<Output> | string
  : string;

/** A tool context schema (KIND-6): a Zod object, validated on every `setContext`. */
export type ToolContextSchema = z.ZodObject;

type ContextOf<Schema extends ToolContextSchema | null> = Schema extends ToolContextSchema
  ? z.input<Schema>
  : Record<string, unknown>;

/** The ThreadState a tool's code receives, its `context` typed by the tool's context schemas (KIND-6). */
export type ToolState<
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
> = ThreadState<ContextOf<Ctx>, ContextOf<Shared>>;

/** A tool's one-time context seed (CTX-1): the patch to merge into its local context, or nothing. */
export type ContextResolver<
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
> = (
  state: ToolState<Ctx, Shared>,
  // biome-ignore lint/suspicious/noConfusingVoidType: a seed with nothing to add may end without a return
) => Promise<Partial<ContextOf<Ctx>> | undefined | void> | Partial<ContextOf<Ctx>> | undefined | void;

export type Tool<
  Args extends ToolArgs | null = null,
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
  Output extends ToolOutputSchema | null = null,
> = Args extends ToolArgs
  ? (state: ToolState<Ctx, Shared>, args: z.infer<Args>) => ToolReturn<ResultOf<Output>>
  : (state: ToolState<Ctx, Shared>) => ToolReturn<ResultOf<Output>>;

export interface DefineToolOptions<
  Args extends ToolArgs | null = null,
  Tenvs extends ToolTenvs | null = null,
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
  Output extends ToolOutputSchema | null = null,
  Event extends z.ZodType | null = null,
> {
  description: string;
  args?: Args;
  execute: Tool<Args, Ctx, Shared, Output>;
  /** Seed 001's form of variable requirements; mapped onto `variables` (VAR-1). */
  tenvs?: Tenvs;
  variables?: VariableDefinition[];
  /** For a generator tool: every progress event it yields must match (KIND-2). */
  eventSchema?: Event;
  /**
   * What a successful result must match (OUT-1): `result` may then be the value itself or its JSON
   * text. A result that does not match becomes an error result naming the failing fields.
   */
  outputSchema?: Output;
  /**
   * The tool's own persistent context (KIND-6): `state.context.local`, kept in the thread under the
   * tool's name, typed by this schema and validated against it on every `state.setContext(patch)`.
   */
  contextSchema?: Ctx;
  /**
   * Seeds the tool's context once, before the thread's first model step (CTX-1): `state.context.local`
   * already holds what the thread's creator passed for this tool; the returned patch is merged over
   * it and checked against `contextSchema` like any `setContext`. It may fetch what it needs through
   * `state.fetch`. A failure fails the turn, and the next turn tries again.
   */
  resolveContext?: ContextResolver<Ctx, Shared>;
  /**
   * The part of the thread's shared context this tool reads and writes (KIND-6): types
   * `state.context.shared`, and every `setContext(patch, { scope: 'shared' })` of this tool must
   * leave the shared context matching it. Fields it does not name are kept as they are.
   */
  sharedContextSchema?: Shared;
  /** Milliseconds before the call is aborted with a timeout error (EXE-6). Default 60 000. */
  timeout?: number;
  /**
   * Safe to run again if the thread restarted while it was running (THR-3). Without this, an
   * interrupted call is reported to the model as interrupted instead of being re-run.
   */
  idempotent?: boolean;
  /** The capability surface the tool needs (LOCK-5). Default: nothing beyond the thread itself. */
  requires?: RequirementSet;
  /** How clients render a call (LOCK-7). Default `'other'`. */
  acpKind?: AcpToolKind;
  /**
   * Has no side effects (seed 002): with `requires` asking only for reads, its reads of the thread
   * and its own subject run where no rule covers them (RO-1).
   */
  readOnly?: boolean;
  /** May run in parallel with adjacent concurrent calls of the same step (EXE-2); needs `readOnly`. */
  concurrent?: boolean;
  /**
   * Output beyond this many bytes is cut to a head, with the whole output in a sidecar file the
   * model can page through with `read` (LOCK-6). Default 200 KB.
   */
  maxOutputBytes?: number;
  /**
   * Offered to the model by name only until `tool_search` loads it (KIND-8): for rarely used tools
   * whose schemas would crowd the context.
   */
  deferred?: boolean;
  /**
   * The tool's output comes from outside the thread (web pages, search snippets, another service's
   * answers): the model receives it inside delimiters with a notice that it is data, not
   * instructions (INJ-1). Default false; a prompt can override it per tool.
   */
  untrustedOutput?: boolean;
  /**
   * What a call touches (paths, hosts, command lines): the subjects of the capability check (LOCK-5)
   * and of permission rules (PERM-1). Without it, a call touches nothing beyond the thread, and
   * rules on the tool's id match its arguments as JSON.
   */
  access?: (args: Args extends ToolArgs ? z.infer<Args> : undefined) => ToolAccess;
  /**
   * A human approves each call before it runs (KIND-5): always, or when the function says so. A
   * rejected call never runs its body; a headless thread denies at once.
   */
  requireApproval?: boolean | ApprovalPredicate<Args extends ToolArgs ? z.infer<Args> : undefined>;
  /**
   * For a tool that waits for a human or a client (a question, a client-side tool): replaces
   * `execute` with a `begin` that may ask for an answer and a `complete` that uses it.
   */
  interaction?: ToolInteraction<Args extends ToolArgs ? z.infer<Args> : undefined>;
}

export interface ToolDefinition<
  Args extends ToolArgs | null = null,
  Tenvs extends ToolTenvs | null = null,
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
  Output extends ToolOutputSchema | null = null,
  Event extends z.ZodType | null = null,
> {
  readonly kind: 'function';
  description: string;
  args: Args;
  execute: Tool<Args, Ctx, Shared, Output>;
  tenvs: Tenvs;
  variables: VariableDefinition[];
  eventSchema: Event extends z.ZodType ? Event : undefined;
  outputSchema: Output extends ToolOutputSchema ? Output : undefined;
  contextSchema: Ctx;
  resolveContext: ContextResolver<Ctx, Shared> | undefined;
  sharedContextSchema: Shared;
  timeout: number | undefined;
  idempotent: boolean;
  requires: RequirementSet;
  acpKind: AcpToolKind;
  readOnly: boolean;
  concurrent: boolean;
  maxOutputBytes: number;
  interaction: ToolInteraction<Args extends ToolArgs ? z.infer<Args> : undefined> | undefined;
  requireApproval: boolean | ApprovalPredicate<Args extends ToolArgs ? z.infer<Args> : undefined>;
  access: ((args: Args extends ToolArgs ? z.infer<Args> : undefined) => ToolAccess) | undefined;
  deferred: boolean;
  /** INJ-1: the output is marked as outside data when the model reads it. */
  untrustedOutput?: boolean;
}

/** What `requireApproval` as a function sees besides the arguments. */
export interface ApprovalContext {
  threadId: string;
  toolCallId: string;
}

export type ApprovalPredicate<A> = (args: A, context: ApprovalContext) => boolean | Promise<boolean>;

/** Any tool definition, whatever its argument schema. */
// biome-ignore lint/suspicious/noExplicitAny: the registry stores tools of every argument type
export type AnyToolDefinition = ToolDefinition<any, any, any, any, any, any>;

/**
 * Type helpers (TYPES-1): what a tool definition takes and gives, read from its schemas. They work
 * on anything `defineTool` (or a client or human-in-the-loop tool) returned.
 */
/** The arguments `execute` receives: the parsed `args` schema, `undefined` for a tool without one. */
export type InferToolArgs<T> = T extends { args: infer A } ? (A extends ToolArgs ? z.output<A> : undefined) : never;

/** The value of a successful result: the `outputSchema`'s parsed type, else the result text. */
export type InferToolResult<T> = T extends { outputSchema: infer O }
  ? O extends ToolOutputSchema
    ? z.output<O>
    : string
  : never;

/** A generator tool's progress event: the `eventSchema`'s parsed type; `never` for a tool with none. */
export type InferToolEvent<T> = T extends { eventSchema: infer E }
  ? E extends z.ZodType
    ? z.output<E>
    : never
  : never;

/** The `state.context` a tool's code sees: its local and shared context, typed by its context schemas. */
export type InferToolContext<T> = T extends { contextSchema: infer C; sharedContextSchema: infer S }
  ? ToolContext<ContextOf<C extends ToolContextSchema ? C : null>, ContextOf<S extends ToolContextSchema ? S : null>>
  : never;

function isZodSchema(schema: unknown): boolean {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

function isZodObject(schema: unknown): boolean {
  return (schema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'object';
}

export function defineTool<
  Args extends ToolArgs | null = null,
  Tenvs extends ToolTenvs | null = null,
  Ctx extends ToolContextSchema | null = null,
  Shared extends ToolContextSchema | null = null,
  Output extends ToolOutputSchema | null = null,
  Event extends z.ZodType | null = null,
>(
  options: DefineToolOptions<Args, Tenvs, Ctx, Shared, Output, Event>,
): ToolDefinition<Args, Tenvs, Ctx, Shared, Output, Event> {
  try {
    return checkedTool(options);
  } catch (error) {
    // Only under `npm run dev`: the registry reports it with the tool's key (definition-error.ts).
    return deferredDefinition(error, options.description);
  }
}

function checkedTool<
  Args extends ToolArgs | null,
  Tenvs extends ToolTenvs | null,
  Ctx extends ToolContextSchema | null,
  Shared extends ToolContextSchema | null,
  Output extends ToolOutputSchema | null,
  Event extends z.ZodType | null,
>(
  options: DefineToolOptions<Args, Tenvs, Ctx, Shared, Output, Event>,
): ToolDefinition<Args, Tenvs, Ctx, Shared, Output, Event> {
  const where = toolDefinitionLabel('defineTool', options.description);
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new DefinitionError(`${where}: description must be a non-empty string`);
  }
  if (typeof options.execute !== 'function') {
    throw new DefinitionError(`${where}: execute must be a function`);
  }
  if (options.args != null) {
    if (!isZodObject(options.args)) {
      throw new DefinitionError(`${where}: args must be a Zod object schema (z.object({...}))`);
    }
    try {
      assertAllowedSchema(options.args);
    } catch (error) {
      throw new DefinitionError(`${where}: ${(error as Error).message}`);
    }
  }
  for (const field of ['outputSchema', 'eventSchema'] as const) {
    if (options[field] != null && !isZodSchema(options[field])) {
      throw new DefinitionError(`${where}: ${field} must be a Zod schema`);
    }
  }
  if (options.resolveContext !== undefined && typeof options.resolveContext !== 'function') {
    throw new DefinitionError(`${where}: resolveContext must be a function`);
  }
  if (options.resolveContext !== undefined && options.contextSchema == null) {
    throw new DefinitionError(`${where}: resolveContext seeds the tool's context; declare contextSchema too`);
  }
  for (const field of ['contextSchema', 'sharedContextSchema'] as const) {
    if (options[field] != null && !isZodObject(options[field])) {
      throw new DefinitionError(`${where}: ${field} must be a Zod object schema (z.object({...}))`);
    }
  }
  const secretDefault = secretDefaultProblem(options.variables ?? []);
  if (secretDefault) throw new DefinitionError(`${where}: ${secretDefault}`);
  if (options.acpKind !== undefined && !ACP_TOOL_KINDS.includes(options.acpKind)) {
    throw new DefinitionError(`${where}: acpKind must be one of ${ACP_TOOL_KINDS.join(', ')}`);
  }
  if (
    options.maxOutputBytes !== undefined &&
    !(Number.isInteger(options.maxOutputBytes) && options.maxOutputBytes > 0)
  ) {
    throw new DefinitionError(`${where}: maxOutputBytes must be a positive integer`);
  }
  if (options.timeout !== undefined && !(options.timeout > 0 && options.timeout <= MAX_TOOL_TIMEOUT_MS)) {
    throw new DefinitionError(
      `${where}: timeout must be a positive number of milliseconds, at most ${MAX_TOOL_TIMEOUT_MS}`,
    );
  }
  // Seed 002 (RO-1): running calls side by side is safe only for calls with no side effects.
  if (options.concurrent === true && options.readOnly !== true) {
    throw new DefinitionError(
      `${where}: concurrent: true needs readOnly: true (only tools without side effects run in parallel)`,
    );
  }
  return {
    kind: 'function',
    description: options.description,
    args: (options.args ?? null) as Args,
    execute: options.execute,
    tenvs: (options.tenvs ?? null) as Tenvs,
    variables: [...(options.variables ?? []), ...variablesFromTenvs(options.tenvs ?? undefined)],
    eventSchema: (options.eventSchema ?? undefined) as ToolDefinition<
      Args,
      Tenvs,
      Ctx,
      Shared,
      Output,
      Event
    >['eventSchema'],
    outputSchema: (options.outputSchema ?? undefined) as ToolDefinition<
      Args,
      Tenvs,
      Ctx,
      Shared,
      Output,
      Event
    >['outputSchema'],
    contextSchema: (options.contextSchema ?? null) as Ctx,
    resolveContext: options.resolveContext,
    sharedContextSchema: (options.sharedContextSchema ?? null) as Shared,
    timeout: options.timeout,
    idempotent: options.idempotent ?? false,
    requires: options.requires ?? {},
    acpKind: options.acpKind ?? 'other',
    readOnly: options.readOnly ?? false,
    concurrent: options.concurrent ?? false,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    interaction: options.interaction,
    requireApproval: options.requireApproval ?? false,
    access: options.access,
    deferred: options.deferred ?? false,
    untrustedOutput: options.untrustedOutput ?? false,
  };
}
