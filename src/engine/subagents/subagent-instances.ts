/**
 * Resumable subagent instances (SUB-4): the children a thread created through `subagent_create`,
 * by the name the model gave each. Kept in the thread's key-value store under a runtime key (tools'
 * own keys are prefixed, so they never meet it); the thread layer writes it when a child is created,
 * the loop reads it to offer `subagent_message` only once there is someone to message.
 */
import type { ThreadStore } from '../ports/index.js';

export const SUBAGENT_INSTANCES_KEY = 'subagent_instances';

export interface SubagentInstance {
  id: string;
  agent: string;
  /** The child side a parent's messages go to (`receives_messages`). */
  receives: 'a' | 'b';
}

export type SubagentInstances = Record<string, SubagentInstance>;

export function subagentInstances(store: Pick<ThreadStore, 'getValue'>): SubagentInstances {
  return (store.getValue(SUBAGENT_INSTANCES_KEY) as SubagentInstances | undefined) ?? {};
}
