/**
 * The ThreadState application code gets at rest (EFF-9, EP-1, TS-48): an effect, a thread endpoint,
 * another thread of the family. No call runs, so nobody is there to approve: the thread's rules
 * (its agent's and the project's included) hold through a gate on which a rule that denies or asks
 * refuses and what no rule covers goes ahead; no child thread may be started; `execution` is null.
 * A thread whose agent is no longer defined has no rules to read: such code is refused outright.
 */
import type { ThreadState } from '../../spec/index.js';
import { createThreadState, type ThreadStateDeps } from '../execute/index.js';
import { accessGate, threadRules } from '../permissions/index.js';
import type { Registry } from '../registry/index.js';

export type RestingStateDeps = Omit<ThreadStateDeps, 'execution' | 'gate' | 'checkHost' | 'registry'> & {
  registry: Registry;
};

const NO_AGENTS: ReadonlySet<string> = new Set();

/** The thread at rest for the application code `label` (`effect:<name>`, `endpoint:<key>`, ...). */
export function restingState(deps: RestingStateDeps, label: string): ThreadState {
  const { store, registry } = deps;
  const agent = registry.agent(store.info.agentId);
  if (!agent) throw new Error(`the thread's agent "${store.info.agentId}" is no longer defined`);
  const gate = accessGate({
    rules: threadRules(store, agent, registry.projectRules),
    tool: label,
    approved: () => false,
    childAgents: NO_AGENTS,
  });
  return createThreadState({ ...deps, execution: null, gate });
}
