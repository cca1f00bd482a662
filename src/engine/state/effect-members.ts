/**
 * `state.scheduleEffect`, `getScheduledEffects` and `removeScheduledEffect` (the Effects chapter) over
 * the thread's effect queue (ports/effect-queue.ts). What is scheduled must be kept exactly until it
 * runs ("MUST preserve scheduled args"), so arguments are refused at once unless they survive a JSON
 * round trip unchanged and pass the effect's schema; the same check runs again when the effect runs.
 */
import type { EffectDefinition, ScheduledEffect, ThreadState } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';
import type { EffectQueue } from '../ports/index.js';

/** The most a thread may have waiting: scheduling in a loop cannot fill its storage. */
export const MAX_PENDING_EFFECTS = 1_000;
/** The largest arguments an effect may be given, as JSON. */
export const MAX_EFFECT_ARGS_BYTES = 64 * 1024;
/** The longest delay: a year. Longer is almost surely a unit mistake (the delay is in milliseconds). */
export const MAX_EFFECT_DELAY_MS = 365 * 24 * 3_600_000;

/** Why `value` would not come back the same from JSON, or null. */
function jsonProblem(value: unknown, path: string, depth: number): string | null {
  if (depth > 64) return `${path} is nested too deeply`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot hold`;
  if (value === undefined) return `${path} is undefined, which JSON cannot hold`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}, which JSON cannot hold`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = jsonProblem(value[index], `${path}[${index}]`, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return `${path} is a ${prototype?.constructor?.name ?? 'class instance'}, not plain JSON data`;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Why arguments given to `name` are refused, or null: not a plain object, not JSON (they would not be
 * the same when the effect runs), too large, or not what the effect's schema accepts.
 */
export function effectArgsProblem(name: string, definition: EffectDefinition, args: unknown): string | null {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return `effect "${name}": the arguments must be an object`;
  }
  const problem = jsonProblem(args, 'args', 0);
  if (problem) return `effect "${name}": ${problem}; the arguments must survive a JSON round trip`;
  if (JSON.stringify(args).length > MAX_EFFECT_ARGS_BYTES) {
    return `effect "${name}": the arguments are larger than ${MAX_EFFECT_ARGS_BYTES} bytes as JSON`;
  }
  const parsed = definition.args?.safeParse(args);
  if (parsed && !parsed.success) return `effect "${name}": invalid arguments: ${describeIssues(parsed.error)}`;
  return null;
}

function delayProblem(delay: unknown): string | null {
  if (typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 && delay <= MAX_EFFECT_DELAY_MS) return null;
  return `the delay must be a number of milliseconds from 0 to ${MAX_EFFECT_DELAY_MS}`;
}

function scheduled(entry: ReturnType<EffectQueue['pending']>[number]): ScheduledEffect {
  // Storage keeps milliseconds; the specification's timestamps are microseconds.
  return {
    id: entry.id,
    name: entry.name,
    args: entry.args,
    scheduledAt: entry.dueAt * 1000,
    createdAt: entry.createdAt * 1000,
  };
}

type EffectMembers = Pick<ThreadState, 'scheduleEffect' | 'getScheduledEffects' | 'removeScheduledEffect'>;

/** The state's effect members over `queue`; without one (a host that keeps no effects) they refuse. */
export function effectMembers(queue: EffectQueue | undefined): EffectMembers {
  const open = (): EffectQueue => {
    if (!queue) throw new Error('this runtime keeps no scheduled effects for this thread');
    return queue;
  };
  return {
    async scheduleEffect(name: string, args: Record<string, unknown>, delay = 0) {
      const effects = open();
      const definition = typeof name === 'string' ? effects.definition(name) : undefined;
      if (!definition) throw new Error(`unknown effect "${String(name)}": no effect is registered under that name`);
      const problem = effectArgsProblem(name, definition, args) ?? delayProblem(delay);
      if (problem) throw new Error(problem);
      if (effects.waiting() >= MAX_PENDING_EFFECTS) {
        throw new Error(`this thread already has ${MAX_PENDING_EFFECTS} effects waiting to run`);
      }
      return effects.schedule(name, JSON.parse(JSON.stringify(args)), Date.now() + Math.floor(delay));
    },
    async getScheduledEffects(name?: string) {
      return open().pending(name).map(scheduled);
    },
    async removeScheduledEffect(id: string) {
      return typeof id === 'string' && open().cancel(id);
    },
  };
}
