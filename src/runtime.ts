/**
 * The runtime as a library: hand it an application's definitions, get back the Worker's fetch
 * handler and the Thread Durable Object class to export.
 *
 *   const runtime = createRuntime({ tools, prompts, agents, models });
 *   export const Thread = runtime.Thread;
 *   export default runtime.worker;
 */
import { type AppDefinitions, Registry } from './engine/registry.js';
import { createApp } from './http/app.js';
import type { RuntimeEnv } from './thread/env.js';
import { createThreadClass } from './thread/thread-object.js';
import { builtinTools } from './tools/index.js';

export interface Runtime {
  registry: Registry;
  worker: ExportedHandler<RuntimeEnv>;
  Thread: ReturnType<typeof createThreadClass>;
}

export function createRuntime(definitions: AppDefinitions): Runtime {
  const registry = new Registry(definitions, builtinTools);
  const app = createApp(registry);
  return {
    registry,
    worker: { fetch: (request, env, ctx) => app.fetch(request, env, ctx) },
    Thread: createThreadClass(registry),
  };
}
