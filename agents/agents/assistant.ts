import { defineAgent } from '@standardagents/spec';

export default defineAgent({
  name: 'assistant',
  title: 'Assistant',
  type: 'ai_human',
  sideA: { prompt: 'assistant', maxSteps: 10 },
  // A call no rule covers asks the human (and is refused on a headless thread).
  permissions: [
    { permission: 'get_current_time', action: 'allow' },
    { permission: 'search_knowledge_base', action: 'allow' },
    { permission: 'summarize', action: 'allow' },
    { permission: 'brainstorm', action: 'allow' },
    // fetch_data requests whatever endpoint the model names: a human approves each call.
    { permission: 'fetch_data', action: 'ask' },
  ],
});
