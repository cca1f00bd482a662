/**
 * `tool_search` (LOCK-4, KIND-8): deferred tools are offered to the model by name only; this tool
 * finds them by query and wires the matches in, so their descriptions and schemas are sent from the
 * next model step on. The loaded set is kept in the thread and survives restarts.
 */
import { z } from 'zod';
import { LOADED_TOOLS_KEY, rankDeferredTools, type SearchableTool } from '../../engine/registry/index.js';
import { defineTool } from '../../spec/index.js';

/**
 * Searches the deferred tools the calling prompt offers (its MCP servers' included); `deferred`, the
 * application's, stands in for a state that does not say.
 */
export function toolSearchTool(deferred: () => readonly SearchableTool[]) {
  return defineTool({
    description: 'Find deferred tools by keywords and load the matching ones for the next steps',
    args: z.object({
      query: z.string().min(1).describe('Keywords or a tool name'),
      max_results: z.number().int().min(1).max(20).default(5).describe('How many tools to load at most'),
    }),
    acpKind: 'search',
    idempotent: true,
    access: (input) => ({ subject: input.query }),
    execute: async (state, input) => {
      const found = rankDeferredTools(state.execution?.deferredTools ?? deferred(), input.query, input.max_results);
      if (found.length === 0) {
        return { status: 'error', error: `No deferred tool matches "${input.query}".` };
      }
      const loaded = new Set((await state.getValue<string[]>(LOADED_TOOLS_KEY)) ?? []);
      for (const tool of found) loaded.add(tool.name);
      await state.setValue(LOADED_TOOLS_KEY, [...loaded]);
      return {
        status: 'success',
        result: found.map((tool) => `${tool.name}: ${tool.description}`).join('\n'),
      };
    },
  });
}
