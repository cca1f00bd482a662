/** Sends the model only the last few messages of a long thread; the stored log keeps them all. */
import { defineHook } from '@standardagents/spec';

export const KEEP_LAST = 4;

export default defineHook({
  hook: 'filter_messages',
  id: 'trim_history',
  execute: async (_state, messages) => messages.slice(-KEEP_LAST),
});
