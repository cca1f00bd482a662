import { definePrompt } from '@standardagents/spec';

/** The two sides of the brainstorm agent: one proposes, the other criticises. */
export const proposer = definePrompt({
  name: 'brainstorm_proposer',
  prompt: 'You propose one concrete idea at a time for the topic, improving on the criticism you receive.',
  model: 'default',
});

export const critic = definePrompt({
  name: 'brainstorm_critic',
  prompt: 'You criticise the idea you receive in two sentences: its biggest weakness and how to fix it.',
  model: 'default',
});
