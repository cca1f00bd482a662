/**
 * A handoff (SUB-2): an ai_human agent listed by name in an ai_human thread's prompt. The call gives
 * the same thread, with its whole history, to that agent: from the next step on, its prompt, model
 * and tools answer. The note tells the new agent why it was handed the conversation.
 */
import { z } from 'zod';
import type { AgentDefinition, AnyToolDefinition } from '../../spec/index.js';
import { defineTool } from '../../spec/index.js';

export function handoffTool(agent: AgentDefinition): AnyToolDefinition {
  return defineTool({
    description: agent.toolDescription || `Hand this conversation over to the ${agent.title} agent`,
    args: z.object({
      note: z.string().default('').describe('Why the conversation is handed over, for the next agent'),
    }),
    acpKind: 'switch_mode',
    access: () => ({ subject: agent.name }),
    execute: async (state, args) => {
      await state.handoff(agent.name);
      const note = args.note.trim();
      return {
        status: 'success',
        result: `The conversation is now handled by the ${agent.title} agent.${note ? ` Note: ${note}` : ''}`,
      };
    },
  }) as AnyToolDefinition;
}
