import { defineAgent } from '@standardagents/spec';

/** The assistant agent running the prompt of that name. */
export function assistantAgent(name: string, title: string) {
  return defineAgent({
    name,
    title,
    type: 'ai_human',
    sideA: { prompt: name, maxSteps: 10 },
    // A call no rule covers asks the human (and is refused on a headless thread).
    permissions: [
      { permission: 'get_current_time', action: 'allow' },
      { permission: 'search_knowledge_base', action: 'allow' },
      { permission: 'summarize', action: 'allow' },
      { permission: 'brainstorm', action: 'allow' },
      // A program's own tool calls are checked one by one, by these same rules.
      { permission: 'run_code', action: 'allow' },
      // fetch_data requests whatever endpoint the model names: a human approves each call.
      { permission: 'fetch_data', action: 'ask' },
    ],
  });
}

export default assistantAgent('assistant', 'Assistant');
