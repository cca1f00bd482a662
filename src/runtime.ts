/**
 * The runtime as a library: hand it an application's definitions, get back the Worker's fetch
 * handler, the Thread Durable Object class and the network entrypoint of sandboxed programs to
 * export.
 *
 *   const runtime = createRuntime({ tools, prompts, agents, models });
 *   export const Thread = runtime.Thread;
 *   export const SandboxNetwork = runtime.SandboxNetwork;
 *   export const Tenant = runtime.Tenant;
 *   export default runtime.worker;
 */

import type { SearchableTool } from './engine/registry/index.js';
import { type AppDefinitions, Registry } from './engine/registry/index.js';
import { createApp } from './http/index.js';
import type { RuntimeEnv } from './thread/bindings/index.js';
import { createThreadClass } from './thread/object/index.js';
import { SandboxNetwork } from './thread/sandbox/index.js';
import { Tenant } from './thread/tenancy/index.js';
import { lockedTools } from './tools/index.js';
import { agentTool, subagentLifecycleTools } from './tools/subagents/index.js';

export interface Runtime {
  registry: Registry;
  worker: ExportedHandler<RuntimeEnv>;
  Thread: ReturnType<typeof createThreadClass>;
  /** The outbound of `state.runCode` programs granted the network (CODE-1). */
  SandboxNetwork: typeof SandboxNetwork;
  /** One per tenant: counts its rate limits, turn slots and spend quotas (IDN-5, IDN-6; binding TENANTS). */
  Tenant: typeof Tenant;
}

export function createRuntime(definitions: AppDefinitions): Runtime {
  // tool_search lists the application's deferred tools, known once the registry is built.
  const deferred: SearchableTool[] = [];
  const registry = new Registry(
    definitions,
    lockedTools(definitions.skills ?? [], () => deferred),
    agentTool,
    subagentLifecycleTools,
  );
  for (const [name, tool] of registry.tools) {
    if (tool.deferred) deferred.push({ name, description: tool.description });
  }
  const app = createApp(registry);
  return {
    registry,
    worker: { fetch: (request, env, ctx) => app.fetch(request, env, ctx) },
    Thread: createThreadClass(registry),
    SandboxNetwork,
    Tenant,
  };
}
