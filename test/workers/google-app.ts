/**
 * Test agent for the google provider (THR-4): `gemini` runs on a model of provider `google`, which
 * reaches the local Gemini server of global-setup.ts through GOOGLE_BASE_URL with GOOGLE_API_KEY;
 * the server plays the directive script in the thread's own user message. Its one tool,
 * `gemini_lookup`, answers from its argument, so a test can follow a call's result into the next
 * request.
 */
import { z } from 'zod';
import { defineAgent, defineModel, definePrompt, defineTool } from '../../src/index.js';

export const models = [defineModel({ name: 'gemini', provider: 'google', model: 'gemini-2.5-flash' })];

export const tools = {
  gemini_lookup: defineTool({
    description: 'Look a word up in the test dictionary',
    args: z.object({ word: z.string().describe('The word to look up') }),
    execute: async (_state, args) => ({ status: 'success', result: `definition of ${args.word}` }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'gemini',
    prompt: 'You answer with the dictionary.',
    model: 'gemini',
    tools: ['gemini_lookup'],
  }),
];

export const agents = [
  defineAgent({
    name: 'gemini',
    sideA: { prompt: 'gemini' },
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  }),
];
