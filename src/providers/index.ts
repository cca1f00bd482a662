/**
 * Model providers (THR-4): OpenAI-compatible Chat Completions, the scripted and demo models,
 * fallbacks and retries, and the choice of provider for a model.
 */
export type { ProviderEnv } from './resolve.js';
export { resolveProvider } from './resolve.js';
