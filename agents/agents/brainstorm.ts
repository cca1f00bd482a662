import { defineAgent } from '@standardagents/spec';

/**
 * Two models talking with each other (dual_ai): the proposer answers the topic, the critic answers
 * the proposer, for six turns in all. The assistant offers it as a tool, run as a subagent in a
 * child thread of its own.
 */
export default defineAgent({
  name: 'brainstorm',
  title: 'Brainstorm',
  type: 'dual_ai',
  exposeAsTool: true,
  toolDescription: 'Brainstorm ideas on a topic between a proposer and a critic, and return the last word',
  maxSessionTurns: 6,
  sideA: { prompt: 'brainstorm_proposer' },
  sideB: { prompt: 'brainstorm_critic' },
});
