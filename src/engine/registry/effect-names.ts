/**
 * An application's effects (the Effects chapter), checked at startup. An effect's name is the key it
 * is registered under, its file's name under `agents/effects/`: snake_case ("Names SHOULD use
 * snake_case"; here a name that is not is refused, so a typo fails the deploy), optionally packed as
 * `{package}/{effect}`, the qualified form that keeps a package's effects apart from the
 * application's own ("Names MUST be unique within the active namespace": `send_digest` and
 * `sales/send_digest` are two effects). `scheduleEffect` finds an effect by exactly that name.
 */
import { DefinitionError, type EffectDefinition } from '../../spec/index.js';

const EFFECT_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** A package id as npm spells an unscoped name: lowercase words joined by `-`, `_` or `.`. */
const PACKAGE_ID = /^[a-z0-9]+([-_.][a-z0-9]+)*$/;
const NAME_MAX = 64;

/** Why `name` is not a valid effect name, or null. */
export function effectNameProblem(name: string): string | null {
  const parts = name.split('/');
  if (parts.length > 2) return 'a packed name has one slash: {package}/{effect}';
  const effect = parts.at(-1) as string;
  if (!EFFECT_NAME.test(effect) || effect.length > NAME_MAX) {
    return `an effect name is snake_case, 1 to ${NAME_MAX} characters (a-z, 0-9, _)`;
  }
  const pkg = parts.length === 2 ? (parts[0] as string) : null;
  if (pkg !== null && (!PACKAGE_ID.test(pkg) || pkg.length > NAME_MAX)) {
    return `a package id is lowercase letters and digits joined by -, _ or ., 1 to ${NAME_MAX} characters`;
  }
  return null;
}

/** The effects by name, each checked; throws a DefinitionError naming the first bad entry. */
export function registeredEffects(
  effects: Readonly<Record<string, EffectDefinition>> | undefined,
): ReadonlyMap<string, EffectDefinition> {
  const map = new Map<string, EffectDefinition>();
  for (const [name, effect] of Object.entries(effects ?? {})) {
    const problem = effectNameProblem(name);
    if (problem) throw new DefinitionError(`effect "${name}" (effects.${name}): ${problem}`);
    if ((effect as { kind?: unknown } | null)?.kind !== 'effect') {
      throw new DefinitionError(`effect "${name}" (effects.${name}) is not a defineEffect() definition`);
    }
    map.set(name, effect);
  }
  return map;
}
