/** Schedules the follow_up effect; answers with the schedule's id. */
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Schedule a follow-up note about a topic, written into this thread later.',
  args: z.object({
    topic: z.string().describe('What the follow-up is about'),
    delay_minutes: z.number().int().min(0).max(10_080).describe('How many minutes from now'),
  }),
  execute: async (state, args) => {
    const id = await state.scheduleEffect('follow_up', { topic: args.topic }, args.delay_minutes * 60_000);
    return { status: 'success', result: `scheduled ${id}` };
  },
});
