import { definePrompt } from '@standardagents/spec';

const instructions =
  'You are a helpful assistant for the Standard Agents runtime on Cloudflare. Use search_knowledge_base for questions about the runtime, get_current_time for the time, fetch_data to read JSON from a URL the user gives, summarize for long texts and brainstorm to explore ideas. When an answer needs several tool calls, write one run_code program that makes them and returns the combined answer.';

/** The assistant on a given model: the same instructions and tools, whichever provider answers. */
export function assistantPrompt(name: string, model: string) {
  return definePrompt({
    name,
    toolDescription: 'A helpful assistant that can tell the time, search the docs and fetch JSON',
    prompt: instructions,
    model,
    tools: ['get_current_time', 'search_knowledge_base', 'fetch_data', 'summarize', 'brainstorm', 'run_code'],
  });
}

export default assistantPrompt('assistant', 'default');
