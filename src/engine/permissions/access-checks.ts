/**
 * The permission checks of what a call touches (PERM-1, PERM-4), the same before a call runs (from its
 * declared access, tool-guards.ts) and while it runs (each file operation, command and request,
 * access-gate.ts): one check per path, host and command, each decided by rules naming the tool or the
 * capability. Only a call that touches none of these is checked on its tool's own subject.
 */
import { canonicalText } from '../files/index.js';
import { type CanonicalCommand, canonicalCommand, commandText } from '../shell/index.js';
import type { PermissionCheck } from './permission-rules.js';
import { insideThread } from './read-only.js';

export interface LabelledCheck extends PermissionCheck {
  /** The subject as the call spelled it (a command as written, not in canonical form). */
  shown: string;
  /** How a message names what was checked: `fs.read "/secret/key.txt"`, `bash "rm -rf /docs"`. */
  label: string;
}

/**
 * The built-in tools that touch nothing but the thread's own state (seed 003: todo and skill are
 * "session-internal", question is "host-mediated", tool_search an index, store_secret asks a human):
 * with no rule about them they run. Every other check with no rule asks (PERM-1).
 */
const SESSION_INTERNAL_TOOLS: ReadonlySet<string> = new Set([
  'todo',
  'question',
  'skill',
  'tool_search',
  'store_secret',
]);

/**
 * What decides a check no rule covers, before the call runs: the session-internal tools run, a
 * read-only tool's checks inside the thread run (read-only.ts, RO-1), anything else asks.
 */
export function fallbackFor(tool: string, check: PermissionCheck, readOnly: boolean): 'allow' | 'ask' {
  if (SESSION_INTERNAL_TOOLS.has(tool)) return 'allow';
  return readOnly && insideThread(check) ? 'allow' : 'ask';
}

export function pathCheck(tool: string, capability: 'fs.read' | 'fs.write', path: string): LabelledCheck {
  return {
    permissions: [tool, capability],
    subject: path,
    kind: 'path',
    shown: path,
    label: `${capability} "${path}"`,
  };
}

export function hostCheck(tool: string, host: string): LabelledCheck {
  return { permissions: [tool, 'net.fetch'], subject: host, kind: 'host', shown: host, label: `net.fetch "${host}"` };
}

export function commandCheck(tool: string, argv: readonly string[], command = canonicalCommand(argv)): LabelledCheck {
  return {
    permissions: [tool, 'shell.run'],
    subject: commandText(command),
    kind: 'command',
    command,
    shown: argv.join(' '),
    label: `${tool} "${argv.join(' ')}"`,
  };
}

export function subjectCheck(tool: string, subject: string): LabelledCheck {
  // In the Unicode form rule patterns are read in (permission-rules.ts).
  const canonical = canonicalText(subject);
  return { permissions: [tool], subject: canonical, kind: 'text', shown: subject, label: `${tool} "${subject}"` };
}

export interface CheckedAccess {
  read: readonly string[];
  write: readonly string[];
  hosts: readonly string[];
  argv: readonly (readonly string[])[];
  canonical: readonly CanonicalCommand[];
  subject: string;
}

/** Every check of a call's declared access, in canonical form. */
export function callChecks(tool: string, access: CheckedAccess): LabelledCheck[] {
  const checks = [
    ...access.argv.map((argv, index) => commandCheck(tool, argv, access.canonical[index])),
    ...access.read.map((path) => pathCheck(tool, 'fs.read', path)),
    ...access.write.map((path) => pathCheck(tool, 'fs.write', path)),
    ...access.hosts.map((host) => hostCheck(tool, host)),
  ];
  return checks.length > 0 ? checks : [subjectCheck(tool, access.subject)];
}
