/**
 * `state.loadModel`, `loadPrompt`, `loadAgent` and the name lists (the specification's resource
 * loading): the application's definitions, read from the registry the thread runs with. A tool gets
 * a read-only view of each definition, never the registry's own object: a definition is shared by
 * every thread of the isolate, so a tool that could change one (a prompt's tools, an agent's rules)
 * would change what every other thread may do.
 */
import type { AgentDefinition, ModelDefinition, PromptDefinition, ThreadState } from '../../spec/index.js';

/** What the state reads of the registry: the definitions by name, and nothing else. */
export interface DefinitionCatalog {
  readonly models: ReadonlyMap<string, ModelDefinition>;
  readonly prompts: ReadonlyMap<string, PromptDefinition>;
  readonly agents: ReadonlyMap<string, AgentDefinition>;
}

export type ResourceMembers = Pick<
  ThreadState,
  'loadModel' | 'loadPrompt' | 'loadAgent' | 'getModelNames' | 'getPromptNames' | 'getAgentNames'
>;

/** Plain objects and arrays: what a definition is made of, apart from functions and schemas. */
function isPlain(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const views = new WeakMap<object, object>();

function refuse(): never {
  throw new TypeError('a loaded definition is read-only: it is shared by every thread of the application');
}

/**
 * A view of `value` whose plain objects and arrays, at every depth, refuse every change. Functions
 * and class instances (a tool's `execute`, a zod schema) are given as they are: they hold no data
 * the registry reads back.
 */
export function readOnlyView<T>(value: T): T {
  if (!isPlain(value)) return value;
  const known = views.get(value);
  if (known) return known as T;
  const view = new Proxy(value, {
    get(target, property, receiver) {
      const inner = Reflect.get(target, property, receiver);
      // A frozen property must read as itself (a proxy invariant); it cannot be changed anyway.
      const own = Reflect.getOwnPropertyDescriptor(target, property);
      return own && !own.configurable && !own.writable ? inner : readOnlyView(inner);
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
  });
  views.set(value, view);
  return view as T;
}

function loader<D>(
  map: (catalog: DefinitionCatalog) => ReadonlyMap<string, D>,
  kind: string,
  catalog: DefinitionCatalog | undefined,
): <T = unknown>(name: string) => Promise<T> {
  return async <T>(name: string) => {
    const definition = catalog && typeof name === 'string' ? map(catalog).get(name) : undefined;
    if (definition === undefined) throw new Error(`${kind} not found: ${String(name)}`);
    return readOnlyView(definition) as unknown as T;
  };
}

/** The resource members of a state; without a catalog every name is unknown and every list empty. */
export function resourceMembers(catalog: DefinitionCatalog | undefined): ResourceMembers {
  const names = (map: (catalog: DefinitionCatalog) => ReadonlyMap<string, unknown>) => () =>
    catalog ? [...map(catalog).keys()].sort() : [];
  return {
    loadModel: loader((c) => c.models, 'Model', catalog),
    loadPrompt: loader((c) => c.prompts, 'Prompt', catalog),
    loadAgent: loader((c) => c.agents, 'Agent', catalog),
    getModelNames: names((c) => c.models),
    getPromptNames: names((c) => c.prompts),
    getAgentNames: names((c) => c.agents),
  };
}
