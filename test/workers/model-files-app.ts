/**
 * Test agents for what the model is sent of a user's files (MSG-10..MSG-13): one agent per provider,
 * each on the local server or stub binding its provider tests use, so a test can post a message with
 * files over HTTP and read back the request the vendor received. `mf_openai` and `mf_openai_text`
 * speak to the OpenAI-compatible server (vision and text-only), `mf_gemini` to the Gemini server,
 * `mf_claude` to the Messages API server,
 * `mf_workers_ai` to the Workers AI stub binding (a vision model: images go, PDFs become notes).
 */
import { defineAgent, defineModel, definePrompt } from '../../src/index.js';
import { STUB_BINDING, STUB_MODEL_ID } from './workers-ai-app.js';

const ALLOW = { permission: '*', pattern: '*', action: 'allow' } as const;

export const models = [
  defineModel({ name: 'mf_openai_vision', provider: 'openai', model: 'gpt-4o', vision: true }),
  defineModel({ name: 'mf_openai_text', provider: 'openai', model: 'gpt-3.5-turbo' }),
  defineModel({ name: 'mf_gemini', provider: 'google', model: 'gemini-2.5-flash', vision: true }),
  defineModel({ name: 'mf_claude', provider: 'anthropic', model: 'claude-sonnet-4-5', vision: true }),
  defineModel({
    name: 'mf_workers_ai',
    provider: 'workers-ai',
    model: STUB_MODEL_ID,
    binding: STUB_BINDING,
    vision: true,
  }),
];

const PROMPTS: [agent: string, model: string][] = [
  ['mf_openai', 'mf_openai_vision'],
  ['mf_openai_text', 'mf_openai_text'],
  ['mf_gemini', 'mf_gemini'],
  ['mf_claude', 'mf_claude'],
  ['mf_workers_ai', 'mf_workers_ai'],
];

export const prompts = PROMPTS.map(([name, model]) => definePrompt({ name, prompt: 'You look at files.', model }));

export const agents = PROMPTS.map(([name]) => defineAgent({ name, sideA: { prompt: name }, permissions: [ALLOW] }));
