/**
 * An application's hooks (HOOK-1 to HOOK-3), checked at startup: each a `defineHook` definition with
 * an id used once across the application, every id a prompt or an agent names defined; and which
 * hooks run while a prompt is active: the prompt's own list when it names any, else its agent's
 * (HOOK-2). The time a hook may take is set here too (`hookTimeoutMs`, HOOK-5).
 */
import {
  type AgentDefinition,
  type AnyHookDefinition,
  DefinitionError,
  type HookName,
  type PromptDefinition,
} from '../../spec/index.js';
import { HOOK_ID_PATTERN, isHookName } from '../../spec/internal.js';

/** HOOK-5: how long one hook may run before it is skipped: ten seconds unless `hookTimeoutMs` says otherwise. */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

export function hookTimeout(value: number | undefined): number {
  if (value === undefined) return DEFAULT_HOOK_TIMEOUT_MS;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new DefinitionError(`hookTimeoutMs must be a positive whole number of milliseconds, not ${String(value)}`);
  }
  return value;
}

/** The application's hooks by id; a malformed entry or an id used twice is a DefinitionError naming it. */
export function hooksById(hooks: readonly AnyHookDefinition[] | undefined): Map<string, AnyHookDefinition> {
  const byId = new Map<string, AnyHookDefinition>();
  if (hooks !== undefined && !Array.isArray(hooks))
    throw new DefinitionError('hooks must be a list of defineHook() definitions');
  for (const [index, hook] of (hooks ?? []).entries()) {
    const where = `hooks[${index}]${typeof hook?.id === 'string' ? ` ("${hook.id}")` : ''}`;
    if (!hook || !isHookName(hook.hook) || typeof hook.execute !== 'function') {
      throw new DefinitionError(`${where} is not a defineHook() definition`);
    }
    if (!HOOK_ID_PATTERN.test(hook.id)) throw new DefinitionError(`${where}: id must be snake_case`);
    if (byId.has(hook.id)) throw new DefinitionError(`duplicate hook id "${hook.id}"`);
    byId.set(hook.id, hook);
  }
  return byId;
}

/** HOOK-3: every id a prompt or an agent names is a defined hook. */
export function checkHookReferences(
  hooks: ReadonlyMap<string, AnyHookDefinition>,
  prompts: Iterable<PromptDefinition>,
  agents: Iterable<AgentDefinition>,
): void {
  const check = (where: string, ids: readonly string[] | undefined) => {
    for (const id of ids ?? []) {
      if (!hooks.has(id)) throw new DefinitionError(`${where} names unknown hook "${id}"`);
    }
  };
  for (const prompt of prompts) check(`prompt "${prompt.name}"`, prompt.hooks);
  for (const agent of agents) check(`agent "${agent.name}"`, agent.hooks);
}

/** The hooks of one point, in the order a list names them. */
export type HooksByPoint = ReadonlyMap<HookName, readonly AnyHookDefinition[]>;

const NONE: HooksByPoint = new Map();

/**
 * HOOK-2: the hooks that run while `prompt` is active in a thread of `agent`, by point: the prompt's
 * list when it names any, else the agent's. Empty (and shared) when neither names one.
 */
export function resolveHooks(
  hooks: ReadonlyMap<string, AnyHookDefinition>,
  prompt: PromptDefinition | undefined,
  agent: AgentDefinition | undefined,
): HooksByPoint {
  const ids = prompt?.hooks?.length ? prompt.hooks : (agent?.hooks ?? []);
  if (ids.length === 0) return NONE;
  const byPoint = new Map<HookName, AnyHookDefinition[]>();
  for (const id of ids) {
    const hook = hooks.get(id);
    if (!hook) continue;
    byPoint.set(hook.hook, [...(byPoint.get(hook.hook) ?? []), hook]);
  }
  return byPoint;
}
