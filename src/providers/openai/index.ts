/**
 * The OpenAI-compatible Chat Completions provider (THR-4): OpenAI, OpenRouter, Groq, Ollama, vLLM,
 * llama.cpp and any other server that speaks the protocol.
 */
import type { HttpProviderKind } from '../transport/index.js';
import { OpenAIProvider } from './openai.js';

export type { OpenAIProviderOptions } from './openai.js';
export { OpenAIProvider } from './openai.js';

export const openaiKind: HttpProviderKind = {
  via: 'http',
  title: 'OpenAI-compatible',
  keyVariable: 'OPENAI_API_KEY',
  baseURLVariable: 'OPENAI_BASE_URL',
  defaultBaseURL: 'https://api.openai.com/v1',
  create: (endpoint) => new OpenAIProvider(endpoint),
};
