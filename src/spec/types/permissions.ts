/**
 * Permissions at the tool boundary (PERM-1 to PERM-3): rules of `(permission, pattern, action)` from
 * three scopes, and the watchdog, a last pre-execute hook. Both act on what a call touches, which
 * each tool describes through `access(args)`.
 */
import type { RequirementSet } from './requirements.js';

export type PermissionAction = 'allow' | 'deny' | 'ask';

/**
 * A permission rule. `permission` is a tool id (`bash`), a capability name (`fs.read`, `fs.write`,
 * `net.fetch`, `shell.run`) or `*`; `pattern` is matched against the subject of the check (a path,
 * a host, a command line) as a glob (`**` crosses `/`) or, ending in `*`, as a prefix.
 */
export interface PermissionRule {
  permission: string;
  pattern?: string;
  /** Default `ask`. */
  action?: PermissionAction;
}

/** What one call touches, as its tool describes it: the subjects permissions and capabilities check. */
export interface ToolAccess {
  /** Paths read, relative to the thread root. */
  read?: string[];
  /** Paths written. */
  write?: string[];
  /** Hosts contacted. */
  hosts?: string[];
  /** Shell command lines run (checked command by command, PERM-4). */
  commands?: string[];
  /** The subject the tool's own id is checked against; default: the arguments as JSON. */
  subject?: string;
}

/**
 * One act a running tool is about to perform outside `state`'s own methods, for `state.authorize`:
 * the paths it reads and writes, the hosts it contacts, the command (argv, after expansion) it runs.
 */
export interface ActAccess {
  read?: string[];
  write?: string[];
  hosts?: string[];
  argv?: string[];
}

export interface WatchdogCall {
  toolId: string;
  args: unknown;
  access: ToolAccess;
  /** The agent's effective capability set (its manifest and its tools). */
  manifest: RequirementSet;
  threadId: string;
}

export type WatchdogDecision = 'allow' | 'ask' | { deny: string };

/** A pre-execute hook on every tool call (PERM-3): it may refuse what capabilities allow, never the reverse. */
export type Watchdog = (call: WatchdogCall) => WatchdogDecision | Promise<WatchdogDecision>;
