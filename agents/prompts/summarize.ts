import { definePrompt } from '@standardagents/spec';

/** Offered as a tool by the assistant: it runs nested in the assistant's thread (SUB-1). */
export default definePrompt({
  name: 'summarize',
  toolDescription: 'Summarize a text in at most three sentences',
  prompt: 'Summarize the text you are given in at most three sentences. Keep names and numbers exact.',
  model: 'default',
  exposeAsTool: true,
  includeChat: false,
});
