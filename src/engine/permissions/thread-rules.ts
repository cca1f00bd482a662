/**
 * The permission rules in force in a thread (PERM-1, THR-12): its agent's manifest, the project's,
 * the rules it inherited from its parent thread, and its own session rules (given at creation, added by "allow
 * always" answers). A child thread inherits what bounds its parent: every deny the parent is under
 * (final in the child, as a manifest deny is) and the parent's session rules, so a child is never
 * freer than the thread that started it.
 *
 * Every call is checked against these rules, so they are kept in memory: the manifest's and the
 * project's per definition (which never change), the thread's own per stored value, made again only
 * once that value is written (the store's `derivedValue`), as an "allow always" answer does.
 */
import type { AgentDefinition, PermissionRule } from '../../spec/index.js';
import type { ThreadStore } from '../ports/index.js';
import { type ScopedRule, scoped } from './permission-rules.js';

/** Where the thread's own rules live: given at creation, and added by "allow always" answers. */
export const SESSION_RULES_KEY = 'permissions:session';
/** Where a child thread keeps the rules it inherited from its ancestors. */
export const INHERITED_RULES_KEY = 'permissions:inherited';

type RuleStore = Pick<ThreadStore, 'getValue' | 'derivedValue'>;

export function sessionRules(store: RuleStore): PermissionRule[] {
  return (store.getValue(SESSION_RULES_KEY) as PermissionRule[] | undefined) ?? [];
}

function inheritedRules(store: RuleStore): PermissionRule[] {
  return (store.getValue(INHERITED_RULES_KEY) as PermissionRule[] | undefined) ?? [];
}

const scopedInherited = (value: unknown) => scoped(value as PermissionRule[] | undefined, 'inherited');
const scopedSession = (value: unknown) => scoped(value as PermissionRule[] | undefined, 'session');

/** Definitions' rules in scoped form, once per definition and scope (one list may serve as both). */
const definitionRules = { manifest: new WeakMap(), project: new WeakMap() } satisfies Record<
  'manifest' | 'project',
  WeakMap<readonly PermissionRule[], readonly ScopedRule[]>
>;

function fromDefinition(rules: readonly PermissionRule[], scope: 'manifest' | 'project'): readonly ScopedRule[] {
  const kept = definitionRules[scope].get(rules);
  if (kept) return kept;
  const made = scoped(rules, scope);
  definitionRules[scope].set(rules, made);
  return made;
}

export function threadRules(
  store: RuleStore,
  agent: AgentDefinition,
  projectRules: readonly PermissionRule[],
): ScopedRule[] {
  return [
    ...fromDefinition(agent.permissions, 'manifest'),
    ...fromDefinition(projectRules, 'project'),
    // From memory while the stored value is unchanged.
    ...store.derivedValue(INHERITED_RULES_KEY, scopedInherited),
    ...store.derivedValue(SESSION_RULES_KEY, scopedSession),
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
