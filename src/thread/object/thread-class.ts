/**
 * The class a Worker exports as its Thread Durable Object: ThreadObject with the application's
 * registry bound in, since the platform constructs it with only `ctx` and `env`.
 */
import type { Registry } from '../../engine/registry/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { ThreadObject } from './thread-object.js';

/** The Durable Object class a Worker exports, its application's registry bound in. */
export type ThreadClass = new (ctx: DurableObjectState, env: RuntimeEnv) => ThreadObject;

/** Binds the object to an application's registry: the class a Worker exports. */
export function createThreadClass(registry: Registry): ThreadClass {
  return class Thread extends ThreadObject {
    constructor(ctx: DurableObjectState, env: RuntimeEnv) {
      super(ctx, env, registry);
    }
  };
}
