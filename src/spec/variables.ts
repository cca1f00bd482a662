/**
 * Variable declarations (VAR-1): the `variables` list of seed 000 and the older `tenvs` Zod object of
 * seed 001 describe the same thing; both end up as a list of VariableDefinition.
 */
import type { z } from 'zod';
import type { VariableDefinition } from './types.js';

/** Fields of a tenvs object become text variables; `.optional()` fields are not required. */
export function variablesFromTenvs(tenvs: z.ZodObject | undefined): VariableDefinition[] {
  if (!tenvs) return [];
  return Object.entries(tenvs.shape).map(([name, field]) => {
    const schema = field as z.ZodType;
    return {
      name,
      type: 'text',
      required: !schema.safeParse(undefined).success,
      description: schema.description ?? '',
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
      });
    }
  }
  return [...byName.values()];
}

/** Names of required variables without a value (VAR-2). */
export function missingVariables(
  declared: readonly VariableDefinition[],
  values: Readonly<Record<string, string>>,
): string[] {
  return declared.filter((v) => v.required && !(v.name in values)).map((v) => v.name);
}
