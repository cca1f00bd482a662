/** Marks the first message of the thread as read and deletes user messages that ask to be forgotten. */
import { defineTool } from '@standardagents/spec';
import { z } from 'zod';

export default defineTool({
  description: 'Mark the first message as read and delete every user message that starts with "FORGET".',
  args: z.object({}),
  execute: async (state) => {
    const { messages } = await state.getMessages({ limit: 1000 });
    const first = messages[0];
    if (first) await state.updateMessage(first.id, { metadata: { read: true } });
    let deleted = 0;
    for (const message of messages) {
      if (message.role === 'user' && message.content?.startsWith('FORGET')) {
        if (await state.deleteMessage(message.id)) deleted++;
      }
    }
    return { status: 'success', result: `marked 1, deleted ${deleted}` };
  },
});
