/**
 * The runtime of the development Worker (src/dev-worker.ts, which `npm run dev` serves): the same as
 * createRuntime, except that definitions that cannot load do not stop the Worker. It serves the
 * error instead (load-failure.ts) until the developer saves a fix and `wrangler dev` reloads it.
 *
 * Why only in development: a deployed Worker that threw nothing at load would deploy and serve
 * errors; there a broken definition must fail the deploy, so createRuntime and src/worker.ts keep
 * throwing. This fallback is chosen by the entry module, not by a variable a deploy could carry.
 */
import type { AppDefinitions } from './engine/registry/index.js';
import { loadFailure, loadFailureThread, loadFailureWorker } from './load-failure.js';
import { createRuntime } from './runtime.js';
import { deferDefinitionErrors } from './spec/internal.js';
import type { RuntimeEnv } from './thread/bindings/index.js';
import { SandboxNetwork } from './thread/sandbox/index.js';
import { Tenant } from './thread/tenancy/index.js';

export interface DevelopmentRuntime {
  worker: ExportedHandler<RuntimeEnv>;
  Thread: new (...args: never[]) => unknown;
  SandboxNetwork: typeof SandboxNetwork;
  Tenant: typeof Tenant;
}

/**
 * `load` returns the application's definitions, loading their modules when called (a `require`, so
 * that a definition throwing while its module loads is caught here rather than failing the Worker).
 */
export function createDevelopmentRuntime(load: () => AppDefinitions): DevelopmentRuntime {
  deferDefinitionErrors();
  try {
    const runtime = createRuntime(load());
    const { worker, Thread } = runtime;
    return { worker, Thread, SandboxNetwork: runtime.SandboxNetwork, Tenant: runtime.Tenant };
  } catch (error) {
    const failure = loadFailure(error);
    console.error(`[standard-agents] ${failure.message}\n  serving it at / until the definitions load`);
    // The tenants' limits need no definitions: the class is the same either way.
    return { worker: loadFailureWorker(failure), Thread: loadFailureThread(failure), SandboxNetwork, Tenant };
  }
}
