/**
 * The Worker `npm run dev` serves (scripts/dev.mjs): the example application in agents/, loaded so
 * that a mistake in its definitions shows as an error page and a 503 instead of stopping
 * `wrangler dev` (dev-runtime.ts). The deployed Worker is src/worker.ts, which fails loudly instead.
 */
// The runtime loads before the application: a module of it that keeps a reference to the global
// `fetch` when it loads keeps the one checked inside tool calls (engine/egress/tool-network.ts).
import './runtime.js';
import { createDevelopmentRuntime } from './dev-runtime.js';
import type { AppDefinitions } from './engine/registry/index.js';

// esbuild bundles a `require` of a module of the project into a call that evaluates it then, so
// what it throws while loading can be caught; an `import` would run it before this module.
declare const require: (path: string) => AppDefinitions;

const runtime = createDevelopmentRuntime(() => require('../agents/index.js'));

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export const Tenant = runtime.Tenant;
export default runtime.worker;
