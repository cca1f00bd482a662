/**
 * The permission rules in force in a thread (PERM-1): its agent's manifest, the project's, the rules
 * it inherited from its parent thread, and its own session rules (given at creation, added by "allow
 * always" answers). A child thread inherits what bounds its parent: every deny the parent is under
 * (final in the child, as a manifest deny is) and the parent's session rules, so a child is never
 * freer than the thread that started it.
 */
import type { AgentDefinition, PermissionRule } from '../../spec/index.js';
import type { ThreadStore } from '../ports/index.js';
import { type ScopedRule, scoped } from './permission-rules.js';

/** Where the thread's own rules live: given at creation, and added by "allow always" answers. */
export const SESSION_RULES_KEY = 'permissions:session';
/** Where a child thread keeps the rules it inherited from its ancestors. */
export const INHERITED_RULES_KEY = 'permissions:inherited';

type RuleStore = Pick<ThreadStore, 'getValue'>;

export function sessionRules(store: RuleStore): PermissionRule[] {
  return (store.getValue(SESSION_RULES_KEY) as PermissionRule[] | undefined) ?? [];
}

function inheritedRules(store: RuleStore): PermissionRule[] {
  return (store.getValue(INHERITED_RULES_KEY) as PermissionRule[] | undefined) ?? [];
}

export function threadRules(
  store: RuleStore,
  agent: AgentDefinition,
  projectRules: readonly PermissionRule[],
): ScopedRule[] {
  return [
    ...scoped(agent.permissions, 'manifest'),
    ...scoped(projectRules, 'project'),
    ...scoped(inheritedRules(store), 'inherited'),
    ...scoped(sessionRules(store), 'session'),
  ];
}

/**
 * What a child of this thread inherits: the denies of this thread's manifest, everything it
 * inherited itself, and its session rules. The project's rules reach the child anyway.
 */
export function rulesForChild(store: RuleStore, agent: AgentDefinition | undefined): PermissionRule[] {
  const manifestDenies = (agent?.permissions ?? []).filter((rule) => rule.action === 'deny');
  return [...inheritedRules(store), ...manifestDenies, ...sessionRules(store)];
}
