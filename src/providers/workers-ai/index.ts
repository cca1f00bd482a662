/**
 * The Workers AI provider (THR-4): models run through the Worker's AI binding (`[ai] binding = "AI"`
 * in wrangler.toml), streamed, with tool calls, images for the vision models (EXE-9) and retries of
 * the transient failures.
 */
import type { BindingProviderKind } from '../transport/index.js';
import { isWorkersAIBinding } from './binding.js';
import { WorkersAIProvider } from './workers-ai.js';

export type { WorkersAIBinding, WorkersAIRunOptions } from './binding.js';
export type { WorkersAIProviderOptions } from './workers-ai.js';
export { WorkersAIProvider } from './workers-ai.js';

export const workersAIKind: BindingProviderKind = {
  via: 'binding',
  title: 'Workers AI',
  defaultBinding: 'AI',
  accepts: isWorkersAIBinding,
  create: (binding) => {
    if (!isWorkersAIBinding(binding)) throw new TypeError('the Workers AI binding has no run method');
    return new WorkersAIProvider({ binding });
  },
};
