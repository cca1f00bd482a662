// A tool that schedules an effect (agents/effects/send_reminder.ts): the reminder arrives as a
// message of this thread once the delay has passed, whether or not anyone is watching.
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Schedule a reminder that comes back to this thread as a message after the given number of minutes',
  args: z.object({
    note: z.string().min(1).max(500).describe('What to be reminded of'),
    minutes: z.number().min(0).max(10_080).describe('How many minutes from now, up to a week'),
  }),
  execute: async (state, args) => {
    const id = await state.scheduleEffect('send_reminder', { note: args.note }, args.minutes * 60_000);
    return { status: 'success', result: `Reminder ${id} set for ${args.minutes} minute(s) from now.` };
  },
});
