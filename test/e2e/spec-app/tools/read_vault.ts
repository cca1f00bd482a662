/** Returns a note that contains a key-shaped string, which redact_results masks before it is stored. */
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Read the vault note.',
  args: z.object({}),
  execute: async () => ({ status: 'success', result: 'the vault key is sk_live_ABC123 (rotate monthly)' }),
});
