/**
 * Test agents for traces (TRACE-1 to TRACE-5): one prompt offering a plain tool, a prompt tool whose
 * nested step calls a tool, an agent offered as a tool (a child thread), and a tool that handles a
 * secret, so one turn makes every kind of span the runtime records.
 */
import { defineAgent, definePrompt, defineTool } from '../../src/index.js';

export const tools = {
  // Hands the secret, in plain text, to a call it invokes: that call's arguments reach its span unscrubbed.
  pass_token: defineTool({
    description: 'Pass the API token to the echo tool',
    variables: [{ name: 'API_TOKEN', type: 'secret', required: false, description: 'Token of the service' }],
    execute: async (state) => {
      const token = await state.env('API_TOKEN');
      await state.invokeTool('echo', { text: `token ${token}` });
      return { status: 'success', result: 'passed' };
    },
  }),
};

export const prompts = [
  definePrompt({
    name: 'traced',
    prompt: 'You are traced.',
    model: 'scripted',
    tools: ['echo', 'summarizer', { name: 'helper', initUserMessageProperty: 'question' }, 'use_token', 'pass_token'],
    variables: [{ name: 'API_TOKEN', type: 'secret', required: false, description: 'Token of the service' }],
  }),
];

export const agents = [defineAgent({ name: 'traced', sideA: { prompt: 'traced' } })];
