/**
 * What one call touches (its tool's `access(args)`), in canonical form, before any rule or capability
 * is matched (ATT-3, PERM-1, PERM-4): paths as thread paths (`secret/x`, `//secret/x` and
 * `/./secret/x` are all `/secret/x`; `..` and encoded traversal make the call invalid), hosts in lower
 * case without a trailing dot, and command lines taken apart into simple commands (in canonical
 * form, command-match.ts) and redirect targets, which are file writes (or reads) like any other.
 */
import type { ToolAccess } from '../../spec/index.js';
import { canonicalHostName, withoutNetwork } from '../egress/index.js';
import type { ValidatedCall } from '../execute/index.js';
import { normalizeThreadPath, PathError } from '../files/index.js';
import { type CanonicalCommand, canonicalCommand, parseCommandLine, ShellSyntaxError } from '../shell/index.js';

export interface CallAccess {
  /** Canonical thread paths read. */
  read: string[];
  /** Canonical thread paths written. */
  write: string[];
  /** Canonical host names contacted. */
  hosts: string[];
  /** The command lines as the tool gave them. */
  commands: string[];
  /** Every simple command of every command line, as argv. */
  argv: string[][];
  /** The same commands in canonical form, for the rules. */
  canonical: CanonicalCommand[];
  /** The tool's own subject (a path subject in canonical form); default: the arguments as JSON. */
  subject: string;
  /** Why the call cannot be checked (unparsable command line, invalid path): it is refused. */
  unparsable: string | null;
}

const cache = new WeakMap<ValidatedCall, Promise<CallAccess>>();

function canonicalPaths(raw: readonly string[] | undefined, access: CallAccess): string[] {
  const paths: string[] = [];
  for (const path of raw ?? []) {
    try {
      paths.push(normalizeThreadPath(path));
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      access.unparsable ??= error.message;
    }
  }
  return paths;
}

async function compute(validated: ValidatedCall): Promise<CallAccess> {
  const { name, definition } = validated.tool;
  const declared: ToolAccess =
    (definition.access && withoutNetwork(name, 'access', () => definition.access?.(validated.args))) ?? {};
  const access: CallAccess = {
    read: [],
    write: [],
    hosts: (declared.hosts ?? []).map(canonicalHostName),
    commands: [...(declared.commands ?? [])],
    argv: [],
    canonical: [],
    subject: declared.subject ?? JSON.stringify(validated.args ?? {}),
    unparsable: null,
  };
  const read = [...(declared.read ?? [])];
  const write = [...(declared.write ?? [])];
  for (const line of access.commands) {
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
        if (redirect.access === 'write' || redirect.access === 'read-write') write.push(redirect.target);
        if (redirect.access === 'read' || redirect.access === 'read-write') read.push(redirect.target);
      }
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      access.unparsable = `the command line could not be parsed: ${error.message}`;
    }
  }
  access.canonical = access.argv.map(canonicalCommand);
  access.read = canonicalPaths(read, access);
  access.write = canonicalPaths(write, access);
  // A subject that is one of the call's paths is matched as that path.
  const subjectPath = [...(declared.read ?? []), ...(declared.write ?? [])].includes(access.subject);
  if (subjectPath) {
    try {
      access.subject = normalizeThreadPath(access.subject);
    } catch {
      // Already recorded as unparsable by canonicalPaths.
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
