// Seed 001, example 11.3: error handling and the abort signal. The request goes through
// state.fetch, which checks the URL and every redirect against the egress policy and the agent's
// net.fetch rules (inside a tool call the global fetch is the same checked fetch).
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Fetch data from external API',
  args: z.object({ endpoint: z.string() }),
  execute: async (state, args) => {
    try {
      // Use abort signal for cancellation support
      const response = await state.fetch(args.endpoint, {
        signal: state.execution?.abortSignal,
      });
      if (!response.ok) {
        return {
          status: 'error',
          error: `HTTP ${response.status}: ${response.statusText}`,
        };
      }
      const data = await response.json();
      return {
        status: 'success',
        result: JSON.stringify(data),
      };
    } catch (err) {
      return {
        status: 'error',
        error: err instanceof Error ? err.message : 'Unknown error',
        stack: err instanceof Error ? err.stack : undefined,
      };
    }
  },
});
