/**
 * The ThreadStates a prompt's tool calls receive: each bound to its call's access gate, so what the
 * call does while it runs is checked against the thread's rules (access-gate.ts), and to its tool's
 * own context (KIND-6). The loop and nested prompt runs build them the same way.
 */
import type { ApprovalAnswer, ExecutionState, ThreadState } from '../../spec/index.js';
import { contextualStates } from '../execute/index.js';
import { type HookRunner, withHooks } from '../hooks/index.js';
import { type AccessGate, accessGate, readsOnly } from '../permissions/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { type GuardSetup, rulesFor } from './tool-guards.js';

export type StateFactory = (execution: ExecutionState, gate?: AccessGate) => ThreadState;

export interface CallStateOptions {
  createState: StateFactory;
  setup: GuardSetup;
  /** Where the calls' interactions and context live. */
  store: ThreadStore;
  /** Where context changes are announced (CTX-1). */
  emit: FrameSink;
  tools: ReadonlyMap<string, ResolvedTool>;
  /** The agents the prompt's tools may start (Registry.childAgentsOf). */
  childAgents: ReadonlySet<string>;
  /** The prompt's hooks, around what a call's state stores and starts (HOOK-8, HOOK-11); none when null. */
  hooks?: HookRunner | null;
}

/** Whether a human approved this call (KIND-5, PERM-2): its approval wait was answered yes. */
function approved(store: ThreadStore, toolCallId: string): boolean {
  return store
    .interactions(toolCallId)
    .some(
      (interaction) =>
        interaction.kind === 'approval' && interaction.answered && (interaction.answer as ApprovalAnswer).approved,
    );
}

export function callStates(options: CallStateOptions): (execution: ExecutionState) => ThreadState {
  const { createState, setup, store, childAgents, hooks } = options;
  const gated = (execution: ExecutionState) => {
    const state = createState(
      execution,
      accessGate({
        rules: rulesFor(setup),
        tool: execution.toolName,
        approved: () => approved(store, execution.toolCallId),
        childAgents,
        readsOnly: readsOnly(options.tools.get(execution.toolName)?.definition),
      }),
    );
    return hooks ? withHooks(state, hooks, store, options.emit) : state;
  };
  return contextualStates(gated, store, options.tools, options.emit);
}
