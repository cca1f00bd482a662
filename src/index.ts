/**
 * The package entry: the runtime and the authoring API.
 */
export type { AppDefinitions, RuntimeLimits } from './engine/registry/index.js';
export { createRuntime, type Runtime } from './runtime.js';
export * from './spec/index.js';
export type { RuntimeEnv } from './thread/bindings/index.js';
