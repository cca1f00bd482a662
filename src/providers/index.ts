/** The providers room's door: what the rest of the runtime may use of it. */
export type { ProviderEnv } from './resolve.js';
export { resolveProvider } from './resolve.js';
