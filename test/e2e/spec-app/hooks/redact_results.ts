/** Masks anything shaped like a live key in a tool's result before the result is stored. */
import { defineHook } from '@standardagents/spec';

const LIVE_KEY = /sk_live_[A-Za-z0-9]+/g;

export default defineHook({
  hook: 'before_store_tool_result',
  id: 'redact_results',
  execute: async (_state, _toolCall, toolResult) => {
    if (typeof toolResult.result !== 'string') return toolResult;
    return { ...toolResult, result: toolResult.result.replace(LIVE_KEY, '[redacted]') };
  },
});
