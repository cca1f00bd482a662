/**
 * Test agents for subagents across Durable Objects (SUB-1 to SUB-7, DEF-6): a dual_ai debate, a
 * lead with resumable subagents, an immediate subagent with scoped variables, a prompt tool.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

export const tools = {
  check_scoped: defineTool({
    description: 'Report whether the project key reached this thread, without showing it',
    execute: async (state) => {
      const key = state.tenvs.PROJECT_KEY;
      return { status: 'success', result: key ? `PROJECT_KEY present (${key.length} chars)` : 'PROJECT_KEY absent' };
    },
  }),
  finish_debate: defineTool({
    description: 'Close the debate with a verdict',
    args: z.object({ verdict: z.string().describe('The verdict') }),
    execute: async () => ({ status: 'success', result: 'debate closed' }),
  }),
};

export const prompts = [
  definePrompt({ name: 'debate_pro', prompt: 'Argue for.', model: 'scripted', tools: ['finish_debate'] }),
  definePrompt({ name: 'debate_con', prompt: 'Argue against.', model: 'scripted', tools: ['finish_debate'] }),
  definePrompt({ name: 'moderator', prompt: 'You moderate.', model: 'scripted', tools: ['debate', 'summarizer'] }),
  definePrompt({
    name: 'summarizer',
    toolDescription: 'Summarize a text with the summarizer prompt',
    prompt: 'You summarize.',
    model: 'scripted',
    tools: ['add'],
    exposeAsTool: true,
    includeChat: false,
  }),
  definePrompt({
    name: 'team_lead',
    prompt: 'You lead a team.',
    model: 'scripted',
    tools: [
      'echo',
      {
        name: 'researcher',
        resumable: { receives_messages: 'side_a', maxInstances: 2, parentCommunication: 'implicit' },
      },
      { name: 'quiet_worker', resumable: { receives_messages: 'side_a', parentCommunication: 'explicit' } },
      { name: 'debate', resumable: { receives_messages: 'side_b' } },
      { name: 'project_setup', resumable: { receives_messages: 'side_a' } },
    ],
  }),
  definePrompt({
    name: 'onboarding',
    prompt: 'You onboard projects.',
    model: 'remote',
    tools: [
      {
        name: 'project_setup',
        initAgentNameProperty: 'label',
        immediate: { nameEnv: 'PROJECT_NAME', descriptionEnv: 'PROJECT_BRIEF', scopedEnv: ['PROJECT_KEY'] },
      },
    ],
  }),
  definePrompt({ name: 'project_setup', prompt: 'You set projects up.', model: 'remote', tools: ['check_scoped'] }),
];

export const agents = [
  defineAgent({
    name: 'debate',
    type: 'dual_ai',
    exposeAsTool: true,
    toolDescription: 'Hold a debate between two models and return its verdict',
    maxSessionTurns: 4,
    sideA: { prompt: 'debate_pro' },
    sideB: { prompt: 'debate_con', stopTool: 'finish_debate', stopToolResponseProperty: 'verdict' },
  }),
  defineAgent({ name: 'moderator', sideA: { prompt: 'moderator' } }),
  defineAgent({ name: 'team_lead', sideA: { prompt: 'team_lead' } }),
  defineAgent({ name: 'researcher', sideA: { prompt: 'general' } }),
  defineAgent({ name: 'quiet_worker', sideA: { prompt: 'general' } }),
  defineAgent({
    name: 'onboarding',
    sideA: { prompt: 'onboarding' },
    variables: [
      { name: 'PROJECT_NAME', type: 'text', required: true, description: 'Name of the project' },
      { name: 'PROJECT_BRIEF', type: 'text', required: true, description: 'What the project needs' },
      { name: 'PROJECT_KEY', type: 'text', required: true, description: 'Deploy key of the project' },
    ],
  }),
  defineAgent({
    name: 'project_setup',
    sideA: { prompt: 'project_setup' },
    variables: [
      { name: 'PROJECT_KEY', type: 'text', required: true, scoped: true, description: 'Deploy key of the project' },
    ],
  }),
];
