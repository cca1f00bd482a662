/** A reminder written into the thread some time after a tool asked for it. */
import { defineEffect } from '@standardagents/spec';
import { z } from 'zod';

export default defineEffect(
  'Writes a follow-up note into the thread.',
  z.object({ topic: z.string() }),
  async (state, args) => {
    await state.injectMessage({ role: 'assistant', content: `Follow-up: ${args.topic}`, silent: false });
  },
);
