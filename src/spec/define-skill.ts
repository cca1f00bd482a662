/**
 * `defineSkill` (LOCK-4): a body of instructions bundled with the application. Only its one-line
 * description sits in the system prompt; the `skill` tool loads the body when the model asks.
 */
import { DefinitionError } from './definition-error.js';

export interface SkillDefinition {
  /** The id the model passes to `skill`. */
  name: string;
  /** One line shown in the system prompt. */
  description: string;
  /** The instructions, loaded on demand. */
  body: string;
}

export function defineSkill(options: SkillDefinition): SkillDefinition {
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(options.name ?? '')) {
    throw new DefinitionError(`defineSkill: name "${options.name}" must be 1 to 64 of a-z, 0-9, "-" and "_"`);
  }
  if (!options.description?.trim() || options.description.includes('\n')) {
    throw new DefinitionError(`defineSkill "${options.name}": description must be one non-empty line`);
  }
  if (!options.body?.trim()) throw new DefinitionError(`defineSkill "${options.name}": body must not be empty`);
  return { ...options };
}
