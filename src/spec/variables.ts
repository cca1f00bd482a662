/**
 * Variable declarations (VAR-1): the `variables` list of seed 000 and the older `tenvs` Zod object of
 * seed 001 describe the same thing; both end up as a list of VariableDefinition.
 */
import type { z } from 'zod';
import type { VariableDefinition } from './types/index.js';

/**
 * The shortest value a secret may have (VAR-3, EXE-8). A shorter one is refused wherever it enters
 * (thread creation, `store_secret`, a deferred child's values, a declared default): the scrubber
 * could not hide it without destroying ordinary text, so it is never accepted at all.
 */
export const MIN_SECRET_LENGTH = 8;

/** Why a secret value is refused, naming the variable; null when it is long enough. */
export function secretValueProblem(name: string, value: string): string | null {
  return value.length >= MIN_SECRET_LENGTH
    ? null
    : `the secret variable "${name}" has a value shorter than ${MIN_SECRET_LENGTH} characters; secrets must be at least ${MIN_SECRET_LENGTH} characters long`;
}

/** Why a declaration list is refused: a secret variable whose default is too short to be a secret. */
export function secretDefaultProblem(variables: readonly VariableDefinition[]): string | null {
  for (const variable of variables) {
    if (variable.type !== 'secret' || variable.default === undefined) continue;
    if (variable.default.length < MIN_SECRET_LENGTH) {
      return `the secret variable "${variable.name}" declares a default shorter than ${MIN_SECRET_LENGTH} characters; secrets must be at least ${MIN_SECRET_LENGTH} characters long`;
    }
  }
  return null;
}

/**
 * Fields of a tenvs object become text variables: `.optional()` fields are not required, and a
 * `.default(value)` becomes the variable's default.
 */
export function variablesFromTenvs(tenvs: z.ZodObject | undefined): VariableDefinition[] {
  if (!tenvs) return [];
  return Object.entries(tenvs.shape).map(([name, field]) => {
    const schema = field as z.ZodType;
    const absent = schema.safeParse(undefined);
    const fallback = absent.success ? absent.data : undefined;
    return {
      name,
      type: 'text',
      required: !absent.success,
      description: schema.description ?? '',
      ...(fallback !== undefined && fallback !== null ? { default: String(fallback) } : {}),
    };
  });
}

/** Merges declaration lists; a later declaration of the same name replaces an earlier one. */
export function mergeVariableDefinitions(
  ...lists: ReadonlyArray<readonly VariableDefinition[] | undefined>
): VariableDefinition[] {
  const byName = new Map<string, VariableDefinition>();
  for (const list of lists) {
    for (const variable of list ?? []) {
      const earlier = byName.get(variable.name);
      byName.set(variable.name, {
        ...variable,
        // A variable required anywhere is required (VAR-2).
        required: variable.required || (earlier?.required ?? false),
        // A secret anywhere stays secret (VAR-3).
        type: earlier?.type === 'secret' ? 'secret' : variable.type,
        // A scoped declaration anywhere keeps the name from being inherited (VAR-4).
        scoped: variable.scoped || earlier?.scoped || undefined,
        // A later level's default wins (VAR-2).
        default: variable.default ?? earlier?.default,
      });
    }
  }
  return [...byName.values()];
}

/** Names of required variables with neither a value nor a default (VAR-2). */
export function missingVariables(
  declared: readonly VariableDefinition[],
  values: Readonly<Record<string, string>>,
): string[] {
  return declared.filter((v) => v.required && !(v.name in values) && v.default === undefined).map((v) => v.name);
}

/** Declared defaults overridden by the thread's own values (VAR-2). */
export function resolveVariableValues(
  declared: readonly VariableDefinition[],
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const variable of declared) if (variable.default !== undefined) resolved[variable.name] = variable.default;
  return { ...resolved, ...values };
}

/**
 * What a child thread inherits from its parent's values (VAR-4, SCOPE-1): everything except the names
 * the child's own definitions declare scoped, unless the parent holds that value as scoped itself: a
 * scoped value flows down the whole subtree of the thread it was given to, through every level that
 * declares it again, and never comes down from above that thread.
 */
export function inheritVariableValues(
  parentValues: Readonly<Record<string, string>>,
  childDeclared: readonly VariableDefinition[],
  parentScoped: ReadonlySet<string> = new Set(),
): Record<string, string> {
  // SCOPE-1: a value the parent holds as scoped belongs to its subtree and passes whatever the child declares.
  const blocked = new Set(childDeclared.filter((v) => v.scoped && !parentScoped.has(v.name)).map((v) => v.name));
  return Object.fromEntries(Object.entries(parentValues).filter(([name]) => !blocked.has(name)));
}

/**
 * SCOPE-1: the names whose values a thread holds as scoped: those it received as scoped from its
 * parent, and those given to it at creation for a variable its own definitions declare scoped.
 */
export function scopedValueNames(
  values: Readonly<Record<string, string>>,
  declared: readonly VariableDefinition[],
  fromParent: readonly string[] = [],
): string[] {
  const names = new Set(fromParent.filter((name) => name in values));
  for (const variable of declared) if (variable.scoped && variable.name in values) names.add(variable.name);
  return [...names].sort();
}

/**
 * A positive integer read from a thread variable (a built-in tool's limit, LOCK-3): its fallback when
 * unset or blank, capped at `max`; a RangeError naming the variable when it is not a positive integer.
 */
export function positiveIntVariable(
  variables: Readonly<Record<string, string>>,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = variables[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`variable ${name} must be a positive integer, got "${raw}"`);
  }
  return Math.min(value, max);
}
