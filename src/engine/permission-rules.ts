/**
 * Permission rulesets (PERM-1). A check is a permission (tool id or capability name) and a subject
 * (a path, a host, a command); the rules of three scopes decide it:
 *
 * - a rule applies when its permission is the check's or `*`, and its pattern matches the subject
 *   (`*` matches any run of characters, `/` included; `?` one character; no wildcard: exact);
 * - a matching **manifest deny is final**: no session or project rule, and no "allow always",
 *   turns it into an allow;
 * - otherwise the **most specific** matching rule wins: first a named permission over `*`, then an
 *   exact pattern over any wildcard pattern, then the pattern with more literal characters, then the
 *   narrower scope (session over project over manifest), then the rule listed later;
 * - when no rule matches, the answer is `ask`.
 */
import type { PermissionAction, PermissionRule } from '../spec/permissions.js';

export type RuleScope = 'manifest' | 'project' | 'session';

export interface ScopedRule {
  permission: string;
  pattern: string;
  action: PermissionAction;
  scope: RuleScope;
}

export interface PermissionCheck {
  permission: string;
  subject: string;
}

export interface RuleDecision {
  action: PermissionAction;
  /** The rule that decided, or null when none matched. */
  rule: ScopedRule | null;
}

const SCOPE_RANK: Record<RuleScope, number> = { manifest: 0, project: 1, session: 2 };

export function scoped(rules: readonly PermissionRule[] | undefined, scope: RuleScope): ScopedRule[] {
  return (rules ?? []).map((rule) => ({
    permission: rule.permission,
    pattern: rule.pattern ?? '*',
    action: rule.action ?? 'ask',
    scope,
  }));
}

const compiled = new Map<string, RegExp>();

function patternRegex(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')
      .replace(/(\.\*)+/g, '.*');
    regex = new RegExp(`^${source}$`, 's');
    compiled.set(pattern, regex);
  }
  return regex;
}

export function ruleMatches(rule: ScopedRule, check: PermissionCheck): boolean {
  return (
    (rule.permission === '*' || rule.permission === check.permission) && patternRegex(rule.pattern).test(check.subject)
  );
}

/** Larger is more specific; compared element by element. */
function specificity(rule: ScopedRule, order: number): number[] {
  const wildcard = /[*?]/.test(rule.pattern);
  return [
    rule.permission === '*' ? 0 : 1,
    wildcard ? 0 : 1,
    rule.pattern.replace(/[*?]/g, '').length,
    SCOPE_RANK[rule.scope],
    order,
  ];
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let index = 0; index < a.length; index++) {
    if ((a[index] as number) !== (b[index] as number)) return (a[index] as number) > (b[index] as number);
  }
  return false;
}

export function decide(rules: readonly ScopedRule[], check: PermissionCheck): RuleDecision {
  let best: { rule: ScopedRule; rank: number[] } | null = null;
  for (const [order, rule] of rules.entries()) {
    if (!ruleMatches(rule, check)) continue;
    if (rule.scope === 'manifest' && rule.action === 'deny') return { action: 'deny', rule };
    const rank = specificity(rule, order);
    if (!best || moreSpecific(rank, best.rank)) best = { rule, rank };
  }
  return best ? { action: best.rule.action, rule: best.rule } : { action: 'ask', rule: null };
}
