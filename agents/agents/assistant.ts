import { defineAgent } from '@standardagents/spec';

export default defineAgent({
  name: 'assistant',
  title: 'Assistant',
  type: 'ai_human',
  sideA: { prompt: 'assistant', maxSteps: 10 },
});
