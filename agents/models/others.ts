import { defineModel } from '@standardagents/spec';

/**
 * Three more providers beside `default`, each with its own credentials: Anthropic (ANTHROPIC_API_KEY),
 * Gemini (GOOGLE_API_KEY) and Workers AI (the AI binding, declared in wrangler.toml when deployed).
 * `npm run dev` is in demo mode, so while a key is missing the offline demo answers for that model.
 */
export const claude = defineModel({
  name: 'claude',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  vision: true,
  prices: { input: 3, output: 15, cachedInput: 0.3 },
});

export const gemini = defineModel({
  name: 'gemini',
  provider: 'google',
  model: 'gemini-2.5-flash',
  vision: true,
  prices: { input: 0.3, output: 2.5, cachedInput: 0.075 },
});

export const llama = defineModel({
  name: 'llama',
  provider: 'workers-ai',
  model: '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
});
