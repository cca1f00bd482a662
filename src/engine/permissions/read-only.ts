/**
 * What a tool declared `readOnly` is spared (seed 002: "ReadOnly exempts from the confirm gate";
 * RO-1). The exemption covers what stays inside the thread: reading its own files and the tool's
 * own subject. So it applies only to a tool whose `requires` reaches nothing else (no host, no
 * command, no write): a request can carry data out whatever the tool calls itself, so `web_fetch`,
 * `web_search` and an MCP server's read-only tools still ask for a host no rule covers.
 *
 * Nobody allowed such a call, so it is not "allowed as a whole" the way a ruled or approved call is:
 * while it runs, a write, a command or a request no rule covers is refused (access-gate.ts).
 */
import type { RequirementSet } from '../../spec/index.js';
import type { PermissionCheck } from './permission-rules.js';

export interface ReadOnlyDeclaration {
  readOnly: boolean;
  requires: RequirementSet;
}

/** Whether a tool runs under the read-only exemption: declared readOnly, and requiring only reads. */
export function readsOnly(definition: ReadOnlyDeclaration | undefined): boolean {
  if (definition?.readOnly !== true) return false;
  const { requires } = definition;
  return (
    (requires.net?.hosts ?? []).length === 0 &&
    (requires.shell ?? []).length === 0 &&
    (requires.fs?.write ?? []).length === 0
  );
}

/** Whether a check stays inside the thread: a read of its files, or the tool's own subject. */
export function insideThread(check: PermissionCheck): boolean {
  return check.kind === 'text' || (check.kind === 'path' && check.permissions.includes('fs.read'));
}
