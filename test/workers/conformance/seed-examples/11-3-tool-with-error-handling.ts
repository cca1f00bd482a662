import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Fetch data from external API',
  args: z.object({ endpoint: z.string() }),
  execute: async (state, args) => {
    try {
      // Use abort signal for cancellation support
      const response = await fetch(args.endpoint, {
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

// The outside service of this example is whatever `endpoint` the model names: the tests point it at
// the local services of test/workers/global-setup.ts (`env.SERVICES_URL`), so no stand-in is declared.
