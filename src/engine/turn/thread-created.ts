/**
 * `after_thread_created` (HOOK-4): once in a thread's life, after it was created and before its first
 * model step, at rest (`state.execution` is null), with the hooks of side A's prompt, else the
 * agent's. It runs when the thread's first turn starts, the earliest the thread has its files and
 * variables open; the mark is written first, so a restart never runs it twice.
 */
import type { TurnDeps } from '../conversation/index.js';
import { hookRunner } from '../guards/index.js';

export const THREAD_CREATED_KEY = 'hooks:thread_created';

export async function runThreadCreatedHooks(deps: TurnDeps): Promise<void> {
  const { registry, agent, store } = deps;
  if (registry.hooks.size === 0) return;
  const hooks = hookRunner(deps, registry.prompt(agent.sideA.prompt), () => null);
  if (!hooks?.has('after_thread_created') || store.getValue(THREAD_CREATED_KEY) === true) return;
  store.setValue(THREAD_CREATED_KEY, true);
  await hooks.afterThreadCreated();
}
