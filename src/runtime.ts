/**
 * The runtime as a library: hand it an application's definitions, get back the Worker's fetch
 * handler and the Thread Durable Object class to export.
 *
 *   const runtime = createRuntime({ tools, prompts, agents, models });
 *   export const Thread = runtime.Thread;
 *   export default runtime.worker;
 */

import type { SearchableTool } from './engine/registry/deferred-tools.js';
import { type AppDefinitions, Registry } from './engine/registry/registry.js';
import { createApp } from './http/app.js';
import type { RuntimeEnv } from './thread/bindings/env.js';
import { createThreadClass } from './thread/object/thread-object.js';
import { lockedTools } from './tools/index.js';
import { agentTool } from './tools/subagents/agent-tool.js';
import { subagentLifecycleTools } from './tools/subagents/subagent-lifecycle.js';

export interface Runtime {
  registry: Registry;
  worker: ExportedHandler<RuntimeEnv>;
  Thread: ReturnType<typeof createThreadClass>;
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
  };
}
