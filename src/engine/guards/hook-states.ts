/**
 * The ThreadState a hook receives, and the runner of a prompt's hooks (HOOK-4, HOOK-10). It lives
 * beside the call states because it is built the same way: over the thread, behind a gate. A hook is
 * application code running inside the thread: its file operations, commands and child threads pass
 * an access gate built from the thread's rules, as a tool call's do, with nobody to approve
 * anything (a rule that denies or asks refuses; what no rule covers goes ahead); its `state.fetch`,
 * and the global `fetch` it calls, pass the egress policy. Its state is fenced once it has
 * answered or run out of time, so work it leaves running can no longer change the thread. Messages
 * a hook stores itself run no hooks: a hook cannot set off itself.
 */
import type { AgentDefinition, ExecutionState, PromptDefinition } from '../../spec/index.js';
import { runInToolCall } from '../egress/index.js';
import {
  type CallFlow,
  createThreadState,
  executionState,
  type Fence,
  fencedState,
  type ThreadStateDeps,
} from '../execute/index.js';
import { HookRunner } from '../hooks/index.js';
import { accessGate, threadRules } from '../permissions/index.js';
import type { Registry } from '../registry/index.js';

export interface HookRunnerDeps extends Omit<ThreadStateDeps, 'execution' | 'gate' | 'checkHost'> {
  registry: Registry;
  agent: AgentDefinition;
  scrub?(text: string): string;
}

/**
 * The runner of the hooks that run while `prompt` is active (HOOK-2), or null when none does: then
 * nothing is built and no point costs anything. `execution` is what they see: set mid-turn, null at rest.
 */
export function hookRunner(
  deps: HookRunnerDeps,
  prompt: PromptDefinition | undefined,
  execution: () => ExecutionState | null,
): HookRunner | null {
  const { registry, agent, store } = deps;
  const hooks = registry.hooksFor(prompt, agent);
  if (hooks.size === 0) return null;
  const childAgents = prompt ? registry.childAgentsOf(prompt.name, agent.name) : new Set([agent.name]);
  return new HookRunner({
    hooks,
    execution,
    emit: deps.emit,
    scrub: deps.scrub ?? ((text) => text),
    timeoutMs: registry.hookTimeoutMs,
    state(hook, current) {
      const tool = `hook:${hook.id}`;
      const gate = accessGate({
        rules: threadRules(store, agent, registry.projectRules),
        tool,
        approved: () => false,
        childAgents,
      });
      const fence: Fence = { ended: null };
      const state = fencedState(createThreadState({ ...deps, execution: current, gate }), fence, tool);
      const network = { tool, fetch: (input: string | URL | Request, init?: RequestInit) => state.fetch(input, init) };
      return {
        state,
        enter: (run) => runInToolCall(network, run),
        end(reason) {
          fence.ended = reason;
        },
      };
    },
  });
}

/**
 * The execution a hook sees mid-turn (HOOK-4): the turn's (its id, side, steps, history, prompt path,
 * `stop` and `forceTurn`) when the turn has one, with the call's own fields empty: a hook runs
 * outside any tool call.
 */
export function hookExecution(
  signal: AbortSignal,
  side: 'a' | 'b',
  steps: () => number,
  running?: CallFlow,
): () => ExecutionState {
  return () =>
    executionState(
      { stepCount: steps(), currentSide: side, abortSignal: signal, toolCallId: '', toolName: '' },
      running,
    );
}
