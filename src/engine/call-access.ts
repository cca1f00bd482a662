/**
 * What one call touches (its tool's `access(args)`), with its command lines taken apart into simple
 * commands and redirect targets (PERM-4): a redirect target is an fs write (or read) like any other.
 */
import type { ToolAccess } from '../spec/index.js';
import { parseCommandLine, ShellSyntaxError } from './shell-commands.js';
import type { ValidatedCall } from './tool-call-validation.js';

export interface CallAccess extends ToolAccess {
  /** Every simple command of every command line, as argv. */
  argv: string[][];
  /** Why the call's command lines cannot be checked, if they cannot. */
  unparsable: string | null;
}

const cache = new WeakMap<ValidatedCall, Promise<CallAccess>>();

async function compute(validated: ValidatedCall): Promise<CallAccess> {
  const declared = validated.tool.definition.access?.(validated.args) ?? {};
  const access: CallAccess = {
    ...declared,
    read: [...(declared.read ?? [])],
    write: [...(declared.write ?? [])],
    argv: [],
    unparsable: null,
  };
  for (const line of declared.commands ?? []) {
    try {
      const parsed = await parseCommandLine(line);
      if (parsed.opaque.length > 0) {
        access.unparsable = `the command line runs commands that cannot be checked: ${parsed.opaque[0]}`;
      }
      access.argv.push(...parsed.commands.map((command) => command.argv));
      for (const redirect of parsed.redirects) {
        if (/^\/dev\//.test(redirect.target) && !redirect.dynamic) continue;
        if (redirect.dynamic && redirect.access !== 'text' && redirect.access !== 'duplicate') {
          // A target known only at run time (`> $F`) could be any path: it cannot be checked.
          access.unparsable = `a redirection uses a path known only at run time: ${redirect.op} ${redirect.target}`;
        }
        if (redirect.access === 'write' || redirect.access === 'read-write') access.write?.push(redirect.target);
        if (redirect.access === 'read' || redirect.access === 'read-write') access.read?.push(redirect.target);
      }
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      access.unparsable = `the command line could not be parsed: ${error.message}`;
    }
  }
  return access;
}

/** Computed once per call and shared by every guard. */
export function callAccess(validated: ValidatedCall): Promise<CallAccess> {
  let access = cache.get(validated);
  if (!access) {
    access = compute(validated);
    cache.set(validated, access);
  }
  return access;
}
