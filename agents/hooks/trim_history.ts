/**
 * A hook: a very long thread sends the model only its newest messages. The thread keeps every
 * message (GET /api/threads/:id/messages shows them all); only what one request carries is trimmed,
 * and never so that it starts with a tool result whose call was cut off.
 */
import { defineHook } from '@standardagents/spec';

/** How many of the newest messages a request carries. */
const KEEP = 200;

export default defineHook({
  hook: 'filter_messages',
  id: 'trim_history',
  execute: async (_state, messages) => {
    if (messages.length <= KEEP) return messages;
    let start = messages.length - KEEP;
    while (start < messages.length && messages[start]?.role === 'tool') start++;
    return messages.slice(start);
  },
});
