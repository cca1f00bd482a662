/**
 * Permission rulesets (PERM-1). A check is a subject (a path, a host, a command, or a tool's own
 * subject) and the permissions a rule may name to decide it: the tool's id, and the capability the
 * subject belongs to (`fs.read`, `fs.write`, `net.fetch`, `shell.run`). So `(read, /docs/*, allow)`
 * and `(fs.read, /docs/*, allow)` both decide a `read` of `/docs/a.md`.
 *
 * - a rule applies when its permission is one of the check's or `*`, and its pattern matches the
 *   subject in canonical form: paths as thread paths (`secret/*` is `/secret/*`, and `/secret/*`
 *   also covers `/secret` itself), hosts in lower case without a trailing dot, commands by meaning
 *   (command-match.ts), anything else as a glob (`*` any run of characters, `?` one character);
 * - a matching **deny from the manifest, or inherited from a parent thread, is final**: no session
 *   or project rule, and no "allow always", turns it into an allow;
 * - otherwise the **most specific** matching rule wins: first a named permission over `*`, then an
 *   exact pattern over any wildcard pattern, then the pattern with more literal characters, then the
 *   narrower scope (session, inherited, project, manifest), then the rule listed later;
 * - when no rule matches, the fallback decides: `ask`, unless the caller says otherwise.
 */
import type { PermissionAction, PermissionRule } from '../../spec/index.js';
import { DefinitionError } from '../../spec/index.js';
import { canonicalHostPattern } from '../egress/index.js';
import { canonicalText, invisibleCharacterIn } from '../files/index.js';
import { compileBuiltPattern, type LinearRegex } from '../patterns/index.js';
import { type CanonicalCommand, commandPatternMatches } from '../shell/index.js';

export type RuleScope = 'manifest' | 'project' | 'inherited' | 'session';

export interface ScopedRule {
  permission: string;
  pattern: string;
  action: PermissionAction;
  scope: RuleScope;
}

/** What a check's subject is: it decides how rule patterns are matched against it. */
export type SubjectKind = 'path' | 'host' | 'command' | 'text';

export interface PermissionCheck {
  /** The permissions a rule may name to decide this check (besides `*`). */
  permissions: readonly string[];
  /** The subject in canonical form. */
  subject: string;
  kind: SubjectKind;
  /** A command subject, parsed. */
  command?: CanonicalCommand;
}

export interface RuleDecision {
  action: PermissionAction;
  /** The rule that decided, or null when none matched and the fallback did. */
  rule: ScopedRule | null;
}

const SCOPE_RANK: Record<RuleScope, number> = { manifest: 0, project: 1, inherited: 2, session: 3 };
/** Scopes whose deny no other rule can lift: the agent's own manifest, and every ancestor's rules. */
const FINAL_DENY_SCOPES: ReadonlySet<RuleScope> = new Set(['manifest', 'inherited']);

/**
 * Rules as they are read from a scope. Patterns are brought to the Unicode form every subject is in
 * (NFC, name-characters.ts), so a rule written as `cafe\u0301/*` covers the path `/café/x`.
 */
export function scoped(rules: readonly PermissionRule[] | undefined, scope: RuleScope): ScopedRule[] {
  return (rules ?? []).map((rule) => ({
    permission: canonicalText(rule.permission),
    pattern: canonicalText(rule.pattern ?? '*'),
    action: rule.action ?? 'ask',
    scope,
  }));
}

/**
 * Why a rule cannot be written as it is, or null: a permission or pattern holding a character
 * nobody can see (name-characters.ts). No path may hold one, so such a rule could only hide what it
 * covers from whoever reads it.
 */
export function ruleProblem(rule: PermissionRule): string | null {
  const found = invisibleCharacterIn(rule.permission) ?? invisibleCharacterIn(rule.pattern ?? '');
  return found
    ? `the rule (${rule.permission}, ${rule.pattern ?? '*'}) holds an invisible or bidirectional control character (${found}); write rules in visible characters`
    : null;
}

/** Checks rules where they are defined (an agent's manifest, the project's); throws DefinitionError. */
export function assertRules(rules: readonly PermissionRule[] | undefined, where: string): void {
  for (const rule of rules ?? []) {
    const problem = ruleProblem(rule);
    if (problem) throw new DefinitionError(`${where}: ${problem}`);
  }
}

// A caller writes the pattern and a model the subject: both run on the linear-time engine (engine/patterns),
// as `*a*a*a*a*b` against a long subject backtracks for seconds in RegExp.
const compiled = new Map<string, LinearRegex>();

function globRegex(pattern: string, key: string, dirSelf = false): LinearRegex {
  let regex = compiled.get(key);
  if (!regex) {
    let source = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')
      .replace(/(\.\*)+/g, '.*');
    if (dirSelf) source = source.replace(/\/\.\*$/, '(?:/.*)?');
    regex = compileBuiltPattern(`^${source}$`, { dotAll: true });
    compiled.set(key, regex);
  }
  return regex;
}

/** A path pattern as a thread path: rooted, without doubled slashes or `.` segments. */
export function canonicalPathPattern(pattern: string): string {
  if (pattern.startsWith('*')) return pattern;
  const rooted = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return rooted.replace(/\/(?:\.?\/)+/g, '/').replace(/\/\.$/, '/') || '/';
}

/**
 * Whether a pattern covers a subject of its kind. `refuses` says the rule denies or asks: a host
 * pattern that cannot be compared exactly then covers more, never less (host-names.ts).
 */
function patternMatches(pattern: string, check: PermissionCheck, refuses: boolean): boolean {
  switch (check.kind) {
    case 'command':
      return check.command ? commandPatternMatches(pattern, check.command) : false;
    case 'path':
      return globRegex(canonicalPathPattern(pattern), `path:${pattern}`, true).test(check.subject);
    case 'host': {
      const host = canonicalHostPattern(pattern, refuses);
      return host !== null && globRegex(host, `host:${refuses}:${pattern}`).test(check.subject);
    }
    default:
      return globRegex(pattern, `text:${pattern}`).test(check.subject);
  }
}

export function ruleMatches(rule: ScopedRule, check: PermissionCheck): boolean {
  return (
    (rule.permission === '*' || check.permissions.includes(rule.permission)) &&
    patternMatches(rule.pattern, check, rule.action !== 'allow')
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

export function decide(
  rules: readonly ScopedRule[],
  check: PermissionCheck,
  fallback: PermissionAction = 'ask',
): RuleDecision {
  let best: { rule: ScopedRule; rank: number[] } | null = null;
  for (const [order, rule] of rules.entries()) {
    if (!ruleMatches(rule, check)) continue;
    if (rule.action === 'deny' && FINAL_DENY_SCOPES.has(rule.scope)) return { action: 'deny', rule };
    const rank = specificity(rule, order);
    if (!best || moreSpecific(rank, best.rank)) best = { rule, rank };
  }
  return best ? { action: best.rule.action, rule: best.rule } : { action: fallback, rule: null };
}

/** How a message names a rule: `the manifest rule (bash, rm *, deny)`. */
export function describeRule(rule: ScopedRule): string {
  return `the ${rule.scope} rule (${rule.permission}, ${rule.pattern}, ${rule.action})`;
}

/**
 * Whether the rules deny contacting a host outright (`net.fetch`), for traffic no single call makes:
 * an MCP server's listing and its OAuth exchange. The server is declared by the agent's author, so
 * only a deny refuses; each call to it is still checked in full by the guards (PERM-1).
 */
export function hostRefusal(rules: readonly ScopedRule[], host: string): string | null {
  const decision = decide(rules, { permissions: ['net.fetch'], subject: host, kind: 'host' }, 'allow');
  return decision.action === 'deny' && decision.rule
    ? `contacting ${host} is denied by ${describeRule(decision.rule)}`
    : null;
}
