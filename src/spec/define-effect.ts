/**
 * `defineEffect` (the specification's Effects chapter): a side effect a thread schedules with
 * `state.scheduleEffect(name, args, delay?)`, run later outside any turn, whose result never reaches
 * the model. An effect's name is the key it is registered under (`export const effects = { send_digest }`),
 * which is its file's name under `agents/effects/`.
 */
import type { z } from 'zod';
import { DefinitionError, toolDefinitionLabel } from './definition-error.js';
import type { ThreadState } from './types/index.js';

export type { ScheduledEffect } from './types/index.js';

/** How long an effect's handler may run before it is aborted, unless its definition says otherwise. */
export const DEFAULT_EFFECT_TIMEOUT_MS = 30_000;
/** The ceiling of an effect's timeout: it runs inside the thread's alarm, which has a wall-time limit. */
export const MAX_EFFECT_TIMEOUT_MS = 5 * 60_000;

export type EffectArgs = z.ZodObject;

/** What an effect does: given the thread at rest (`state.execution` is null) and its arguments. */
export type EffectHandler<Args = Record<string, unknown>> = (state: ThreadState, args: Args) => Promise<void>;

export interface EffectOptions {
  /**
   * Safe to run again when the thread restarted while it ran. Without this, an effect interrupted by a
   * restart is recorded as failed ("interrupted") and not run again.
   */
  idempotent?: boolean;
  /** Milliseconds before the handler is aborted and the run recorded as failed. Default 30 000. */
  timeout?: number;
}

export interface EffectDefinition<Args = Record<string, unknown>> {
  readonly kind: 'effect';
  readonly description: string;
  /** The arguments' schema, checked when the effect is scheduled and again when it runs; null: none. */
  readonly args: EffectArgs | null;
  /** A method, not a function property: an effect of any arguments is an `EffectDefinition` where one is expected. */
  handler(state: ThreadState, args: Args): Promise<void>;
  readonly idempotent: boolean;
  readonly timeout: number;
}

function isZodObject(schema: unknown): boolean {
  const def = (schema as { _zod?: { def?: { type?: string } } } | null)?._zod?.def;
  return def?.type === 'object';
}

function checkedOptions(where: string, options: EffectOptions | undefined): { idempotent: boolean; timeout: number } {
  const timeout = options?.timeout ?? DEFAULT_EFFECT_TIMEOUT_MS;
  if (!(typeof timeout === 'number' && timeout > 0 && timeout <= MAX_EFFECT_TIMEOUT_MS)) {
    throw new DefinitionError(
      `${where}: timeout must be a positive number of milliseconds, at most ${MAX_EFFECT_TIMEOUT_MS}`,
    );
  }
  return { idempotent: options?.idempotent === true, timeout };
}

/** An effect whose arguments a Zod object schema describes. */
export function defineEffect<Args extends EffectArgs>(
  description: string,
  args: Args,
  handler: EffectHandler<z.infer<Args>>,
  options?: EffectOptions,
): EffectDefinition<z.infer<Args>>;
/** An effect without arguments. */
export function defineEffect(
  description: string,
  handler: (state: ThreadState) => Promise<void>,
  options?: EffectOptions,
): EffectDefinition<Record<string, never>>;
export function defineEffect(
  description: string,
  second: EffectArgs | EffectHandler,
  third?: EffectHandler | EffectOptions,
  fourth?: EffectOptions,
): EffectDefinition {
  const where = toolDefinitionLabel('defineEffect', description);
  if (typeof description !== 'string' || description.trim() === '') {
    throw new DefinitionError(`${where}: an effect needs a description`);
  }
  const withArgs = typeof second !== 'function';
  const args = withArgs ? second : null;
  const handler = (withArgs ? third : second) as EffectHandler | undefined;
  const options = (withArgs ? fourth : third) as EffectOptions | undefined;
  if (withArgs && !isZodObject(args)) {
    throw new DefinitionError(`${where}: the arguments must be a Zod object schema (z.object({...}))`);
  }
  if (typeof handler !== 'function') {
    throw new DefinitionError(`${where}: the handler must be a function (state, args) => Promise<void>`);
  }
  return Object.freeze({ kind: 'effect', description, args, handler, ...checkedOptions(where, options) });
}
