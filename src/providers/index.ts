/**
 * Model providers (THR-4): OpenAI-compatible Chat Completions, Anthropic Messages, Google Gemini,
 * Workers AI through its binding, the scripted and demo models, fallbacks and retries, and the
 * choice of provider for a model from the Worker's env.
 */
export type { ModelStatus, ProviderEnv } from './resolve.js';
export { isDemoMode, modelStatus, resolveProvider } from './resolve.js';
