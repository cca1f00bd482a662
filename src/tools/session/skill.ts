/**
 * `skill` (LOCK-4): loads a bundled skill's body into the conversation. The skills' one-line
 * descriptions are in the system prompt (engine/request/system-prompt.ts); bodies arrive only on
 * demand, so many skills cost the context almost nothing until used.
 */
import { z } from 'zod';
import type { SkillDefinition } from '../../spec/index.js';
import { defineTool } from '../../spec/index.js';

export function skillTool(skills: readonly SkillDefinition[]) {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    description: 'Load the full instructions of a skill listed in the system prompt',
    args: z.object({ name: z.string().min(1).describe('The skill name as listed') }),
    acpKind: 'read',
    readOnly: true,
    concurrent: true,
    idempotent: true,
    access: (input) => ({ subject: input.name }),
    execute: async (_state, input) => {
      const skill = byName.get(input.name);
      if (!skill) {
        const known = [...byName.keys()];
        return {
          status: 'error',
          error: `No skill named "${input.name}". ${known.length > 0 ? `Skills: ${known.join(', ')}.` : 'This application has no skills.'}`,
        };
      }
      return { status: 'success', result: `# Skill: ${skill.name}\n\n${skill.body}` };
    },
  });
}
