// An effect: work a thread schedules for later, run outside any turn from the thread's alarm. Its
// name is this file's name; agents/index.ts registers it under that name. Queuing a message wakes
// the thread, so the model sees the reminder and answers it. Safe to run twice, so declared idempotent.
import { defineEffect } from '@standardagents/spec';
import { z } from 'zod';

export default defineEffect(
  'Remind the thread of something it asked to be reminded of',
  z.object({ note: z.string() }),
  async (state, args) => {
    await state.queueMessage({ role: 'user', content: `Reminder: ${args.note}` });
  },
  { idempotent: true },
);
