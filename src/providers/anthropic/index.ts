/**
 * The Anthropic provider (THR-4): Anthropic's Messages API, natively — the system text apart, tool
 * use and results as content blocks, extended thinking, structured outputs, prompt-cache usage.
 */
import type { HttpProviderKind } from '../transport/index.js';
import { AnthropicProvider } from './anthropic.js';

export type { AnthropicProviderOptions } from './anthropic.js';
export { ANTHROPIC_VERSION, AnthropicProvider } from './anthropic.js';
export { DEFAULT_MAX_TOKENS, THINKING_BUDGETS } from './request.js';

export const anthropicKind: HttpProviderKind = {
  via: 'http',
  title: 'Anthropic',
  keyVariable: 'ANTHROPIC_API_KEY',
  baseURLVariable: 'ANTHROPIC_BASE_URL',
  defaultBaseURL: 'https://api.anthropic.com',
  create: (endpoint) => new AnthropicProvider(endpoint),
};
