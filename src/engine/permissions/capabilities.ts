/**
 * Capability requirements (LOCK-5): the effective set of an agent is the union of its manifest's
 * `requires` and every tool's; a call that touches a path, host or command outside it is refused
 * before any tool code runs. Pattern variables expand per host: here `{workspace}` is the thread's
 * root, and `{ad-hoc}` and `{user-data}` expand to nothing, so patterns using them grant nothing
 * (fail closed). An unknown variable is a definition error.
 */
import type { RequirementSet, ShellRunRequirement, ToolAccess } from '../../spec/index.js';
import { DefinitionError } from '../../spec/index.js';
import { canonicalHostName, canonicalHostPattern } from '../egress/index.js';
import { canonicalText, normalizeThreadPath } from '../files/index.js';
import { compileGlob, PatternRefused } from '../patterns/index.js';
import { commandName } from '../shell/index.js';
import { argMatches } from './arg-patterns.js';

/** What each pattern variable expands to on this host. */
const PATTERN_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  workspace: [''],
  'ad-hoc': [],
  'user-data': [],
};

/** Expands `{variable}`s; a pattern whose expansion is empty disappears, granting nothing. */
export function expandPattern(pattern: string, where: string): string[] {
  let expansions = [pattern];
  for (const match of pattern.matchAll(/\{([^}]*)\}/g)) {
    const name = match[1] as string;
    const values = PATTERN_VARIABLES[name];
    if (!values) {
      throw new DefinitionError(
        `${where}: unknown variable {${name}} in pattern "${pattern}" (known: ${Object.keys(PATTERN_VARIABLES)
          .map((known) => `{${known}}`)
          .join(', ')})`,
      );
    }
    expansions = expansions.flatMap((expansion) => values.map((value) => expansion.replace(match[0], value)));
  }
  return expansions.map((expansion) => (expansion.startsWith('/') ? expansion : `/${expansion}`));
}

/** Checks every pattern of a requirement set at definition time (unknown variables throw). */
export function assertRequirementPatterns(requires: RequirementSet, where: string): void {
  for (const pattern of [...(requires.fs?.read ?? []), ...(requires.fs?.write ?? [])]) expandPattern(pattern, where);
}

type Matcher = (subject: string) => boolean;

/**
 * Whether a subject matches any of the globs, on the linear-time engine the runtime's other globs run
 * on (engine/patterns): the subjects are a model's paths and hosts, and one engine leaves no glob of
 * the runtime to a backtracking regex.
 */
function anyGlob(globs: readonly string[], where: string): Matcher {
  let matchers: Matcher[];
  try {
    matchers = globs.map((glob) => compileGlob(glob));
  } catch (error) {
    if (error instanceof PatternRefused) throw new DefinitionError(`${where}: ${error.message}`);
    throw error;
  }
  return (subject) => matchers.some((match) => match(subject));
}

function pathMatcher(patterns: readonly string[], where: string): Matcher {
  // In the Unicode form of thread paths (name-characters.ts).
  const expanded = patterns.flatMap((pattern) => expandPattern(canonicalText(pattern), where));
  if (expanded.length === 0) return () => false;
  const match = anyGlob(expanded, where);
  // `/x/**` also covers `/x` itself.
  return (path) => match(path) || match(`${path}/`);
}

function hostMatcher(patterns: readonly string[]): Matcher {
  // A grant: a pattern that cannot be compared with the parser's form of hosts grants nothing.
  const canonical = patterns.flatMap((pattern) => canonicalHostPattern(pattern, false) ?? []);
  if (canonical.length === 0) return () => false;
  const match = anyGlob(canonical, 'a host pattern');
  return (host) => match(canonicalHostName(host));
}

export interface EffectiveCapabilities {
  readonly set: RequirementSet;
  canRead: Matcher;
  canWrite: Matcher;
  canReach: Matcher;
  canRun(argv: readonly string[]): boolean;
}

function runs(requirement: ShellRunRequirement, argv: readonly string[]): boolean {
  const words = argv.map(canonicalText);
  if (requirement.cmd !== '*' && canonicalText(requirement.cmd) !== commandName(words[0] ?? '')) return false;
  if (!requirement.args) return true;
  const rest = words.slice(1);
  return (
    rest.length === requirement.args.length &&
    requirement.args.every((pattern, index) => argMatches(pattern, rest[index]))
  );
}

/** The union of requirement sets (LOCK-5): what an agent's tools may touch. */
export function effectiveCapabilities(sets: readonly RequirementSet[], where: string): EffectiveCapabilities {
  const union: Required<RequirementSet> = {
    fs: { read: [], write: [] },
    net: { hosts: [] },
    shell: [],
    capabilities: [],
  };
  for (const set of sets) {
    union.fs.read?.push(...(set.fs?.read ?? []));
    union.fs.write?.push(...(set.fs?.write ?? []));
    union.net.hosts?.push(...(set.net?.hosts ?? []));
    union.shell.push(...(set.shell ?? []));
    union.capabilities.push(...(set.capabilities ?? []));
  }
  const canRead = pathMatcher(union.fs.read ?? [], where);
  const canWrite = pathMatcher(union.fs.write ?? [], where);
  return {
    set: union,
    // Writing a path implies being allowed to read it back.
    canRead: (path) => canRead(path) || canWrite(path),
    canWrite,
    canReach: hostMatcher(union.net.hosts ?? []),
    canRun: (argv) => union.shell.some((requirement) => runs(requirement, argv)),
  };
}

/** The first thing a call touches outside the effective set, as a reason; null when all is in scope. */
export function outOfScope(
  capabilities: EffectiveCapabilities,
  access: ToolAccess,
  commands: readonly (readonly string[])[],
): string | null {
  for (const raw of access.read ?? []) {
    const path = normalizeThreadPath(raw);
    if (!capabilities.canRead(path)) return `reading ${path} is outside this agent's capabilities (fs.read)`;
  }
  for (const raw of access.write ?? []) {
    const path = normalizeThreadPath(raw);
    if (!capabilities.canWrite(path)) return `writing ${path} is outside this agent's capabilities (fs.write)`;
  }
  for (const host of access.hosts ?? []) {
    if (!capabilities.canReach(host)) return `contacting ${host} is outside this agent's capabilities (net.fetch)`;
  }
  for (const argv of commands) {
    if (!capabilities.canRun(argv)) {
      return `running "${argv.join(' ')}" is outside this agent's capabilities (shell.run)`;
    }
  }
  return null;
}
