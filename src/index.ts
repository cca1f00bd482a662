/**
 * The package entry: the runtime and the authoring API.
 */
export type { AppDefinitions } from './engine/registry/registry.js';
export { createRuntime, type Runtime } from './runtime.js';
export * from './spec/index.js';
export type { RuntimeEnv } from './thread/bindings/env.js';
