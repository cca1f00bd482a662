/**
 * The state's variables and family (the specification's `setEnv`, `envType`, `children`,
 * `getChildThread`, `getParentThread`). Storing a variable and reaching another thread are the
 * thread's to do (its sealed variables, other Durable Objects): the state asks its host, and refuses
 * with a reason where the host cannot.
 */
import type { SubagentRegistryEntry, ThreadState } from '../../spec/index.js';
import type { ChildEntry, ThreadHost, ThreadStore } from '../ports/index.js';

/** What the state reads of the thread's variables: names and values live, after every `setEnv`. */
export interface VariableView {
  readonly declared: ReadonlySet<string>;
  readonly values: Readonly<Record<string, string>>;
  /** Names whose values are secrets; absent when the thread keeps none. */
  readonly secretNames?: ReadonlySet<string>;
}

export type HierarchyMembers = Pick<ThreadState, 'setEnv' | 'envType' | 'getChildThread' | 'getParentThread'>;

/** A registry entry as the state shows it: `createdAt` in µs (storage keeps ms). */
export function registryEntry(child: ChildEntry): SubagentRegistryEntry {
  const { id, createdAt, ...rest } = child;
  return { reference: id, ...rest, createdAt: createdAt * 1000 };
}

function setEnvType(options: unknown): 'text' | 'secret' | undefined {
  if (options === undefined || options === null) return undefined;
  const type = (options as { type?: unknown }).type;
  if (type === undefined || type === 'text' || type === 'secret') return type;
  throw new Error(`setEnv: type must be 'text' or 'secret', not ${JSON.stringify(type) ?? String(type)}`);
}

export function hierarchyMembers(store: ThreadStore, host: ThreadHost, variables: VariableView): HierarchyMembers {
  return {
    async setEnv(name: string, value: string, options?: { type?: 'text' | 'secret' }) {
      if (typeof name !== 'string' || typeof value !== 'string') {
        throw new Error('setEnv takes a variable name and a string value');
      }
      const type = setEnvType(options);
      if (!host.setEnv) throw new Error('setEnv is not available here: this state has no thread to store variables in');
      await host.setEnv(name, value, type);
    },
    async envType(name: string) {
      if (variables.secretNames?.has(name)) return 'secret';
      return Object.hasOwn(variables.values, name) || variables.declared.has(name) ? 'text' : 'secret';
    },
    async getChildThread(referenceId: string) {
      if (typeof referenceId !== 'string' || !store.children().includes(referenceId)) return null;
      return host.familyState ? host.familyState('child', referenceId) : null;
    },
    async getParentThread() {
      if (!store.info.parentId || !host.familyState) return null;
      return host.familyState('parent', null);
    },
  };
}
