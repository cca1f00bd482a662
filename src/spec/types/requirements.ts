/**
 * What a tool declares it needs (seed 003 "Capability requirements", LOCK-5) and how clients show
 * it (LOCK-7). The runtime refuses calls outside the declared surface before any tool code runs.
 */

/** An argument pattern of a shell requirement: exact, any one argument, or a prefix. */
export type ArgPattern = string | { wildcard: true } | { prefix: string };

export interface ShellRunRequirement {
  /** Executable name, e.g. "git", "ls". */
  cmd: string;
  /** Ordered patterns matched against argv[1..]; absent means any arguments. */
  args?: ArgPattern[];
}

/**
 * Path patterns are globs relative to the thread root and may use `{workspace}`, `{ad-hoc}` and
 * `{user-data}`; host patterns are globs over host names.
 */
export interface RequirementSet {
  fs?: { read?: string[]; write?: string[] };
  net?: { hosts?: string[] };
  shell?: ShellRunRequirement[];
  capabilities?: string[];
}

/** The ACP tool kinds: they drive a client's icon and renderer for a call. */
export type AcpToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';

export const ACP_TOOL_KINDS: readonly AcpToolKind[] = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
];
