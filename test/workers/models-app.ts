/**
 * Test agents for models (THR-4): one whose model has no credentials in this Worker, and one with a
 * priced model, a budget and usage the script reports.
 */
import { defineAgent, defineModel, definePrompt } from '../../src/index.js';
import { directiveScript } from '../support/directive-script.js';

const ALLOW = { permission: '*', pattern: '*', action: 'allow' } as const;

export const models = [
  // Its key and endpoint variables are set nowhere: the Worker (not in demo mode) must refuse it.
  defineModel({
    name: 'unconfigured',
    provider: 'openai',
    model: 'gpt-4o-mini',
    apiKeyVariable: 'UNSET_TEST_KEY',
    baseURLVariable: 'UNSET_TEST_URL',
  }),
  defineModel({
    name: 'priced',
    provider: 'scripted',
    script: directiveScript,
    prices: { input: 1000, output: 1000 },
  }),
];

export const prompts = [
  definePrompt({ name: 'unconfigured', prompt: '', model: 'unconfigured' }),
  definePrompt({ name: 'priced', prompt: '', model: 'priced', tools: ['echo'] }),
];

export const agents = [
  defineAgent({ name: 'unconfigured', sideA: { prompt: 'unconfigured' }, permissions: [ALLOW] }),
  defineAgent({ name: 'budgeted', sideA: { prompt: 'priced' }, permissions: [ALLOW], budget: { maxTokens: 100_000 } }),
];
