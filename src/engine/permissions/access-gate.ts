/**
 * The run-time half of containment (PERM-1, PERM-4, ATT-3): what a running call actually touches is
 * checked where it happens, not only where its arguments were parsed. Every file operation of the
 * thread's filesystem as a tool sees it (`state.readFile`, the `bash` tool's shell, ...), every
 * command the shell really runs, every request `state.fetch` makes and every child thread a tool
 * starts passes through the call's gate, in canonical form, so no spelling, command or indirection
 * gets around a rule.
 *
 * Before the call ran, the guards decided what its declared access showed (tool-guards.ts): a
 * subject no rule covers was asked about then. Here, a rule that denies refuses, and a rule that asks
 * refuses unless a human approved this call; what no rule covers goes ahead, since the call was
 * allowed as a whole, except a read-only tool's acts beyond reading (read-only.ts).
 */

import { canonicalHostName } from '../egress/index.js';
import { normalizeThreadPath } from '../files/index.js';
import { commandCheck, hostCheck, type LabelledCheck, pathCheck } from './access-checks.js';
import { decide, describeRule, type ScopedRule } from './permission-rules.js';
import { insideThread } from './read-only.js';

/** A refusal at run time; the shell reports it as EACCES ("Permission denied"). */
export class AccessDenied extends Error {
  readonly code = 'EACCES';

  constructor(message: string) {
    super(message);
    this.name = 'AccessDenied';
  }
}

export interface AccessGate {
  /** The canonical path, if the call may read it; throws AccessDenied (or PathError). */
  read(path: string): string;
  /** The canonical path, if the call may write or delete it; throws AccessDenied (or PathError). */
  write(path: string): string;
  /** Whether a listing or a search may show this stored path (its name or its lines). */
  visible(path: string): boolean;
  /** Refuses a command (argv after expansion, as the shell runs it) the rules refuse. */
  command(argv: readonly string[]): void;
  /** Refuses a host (canonical) the rules refuse. */
  host(host: string): void;
  /** Refuses a child thread of an agent the calling prompt does not offer (SUB-2, SUB-4). */
  childAgent(agent: string): void;
}

export interface GateSetup {
  /** The thread's rules, read when the call started. */
  rules: readonly ScopedRule[];
  /** The running tool's id: rules may name it. */
  tool: string;
  /** Whether a human approved this call (an answered approval). */
  approved(): boolean;
  /** Agents the calling prompt may start as child threads. */
  childAgents: ReadonlySet<string>;
  /**
   * The tool runs under the read-only exemption (read-only.ts): nobody allowed the call as a whole,
   * so what it does beyond reading needs a rule or the human's approval.
   */
  readsOnly?: boolean;
}

export function accessGate(setup: GateSetup): AccessGate {
  const decided = new Map<string, string | null>();

  /** Null when the check passes, else why not. */
  function refusal(check: LabelledCheck): string | null {
    const key = `${check.permissions.join(',')}\u0000${check.subject}`;
    const known = decided.get(key);
    if (known !== undefined) return known;
    const fallback = setup.readsOnly && !insideThread(check) ? 'ask' : 'allow';
    const { action, rule } = decide(setup.rules, check, fallback);
    let reason: string | null = null;
    if (action === 'deny' && rule) reason = `Denied by ${describeRule(rule)} for ${check.label}`;
    if (action === 'ask' && !setup.approved()) {
      reason = rule
        ? `${describeRule(rule)} asks for approval of ${check.label}, which this call does not have; name it in the call's arguments so it can be approved`
        : `No permission rule covers ${check.label}, and "${setup.tool}" runs unasked only because it is read-only: what it does beyond reading the thread needs a rule that allows it`;
    }
    decided.set(key, reason);
    return reason;
  }

  function enforce(check: LabelledCheck): void {
    const reason = refusal(check);
    if (reason) throw new AccessDenied(reason);
  }

  return {
    read(path) {
      const canonical = normalizeThreadPath(path);
      enforce(pathCheck(setup.tool, 'fs.read', canonical));
      return canonical;
    },
    write(path) {
      const canonical = normalizeThreadPath(path);
      enforce(pathCheck(setup.tool, 'fs.write', canonical));
      return canonical;
    },
    visible(path) {
      // A key stored before names were canonical (or by another writer) is judged in canonical
      // form; one no path could name (an invisible character) is not shown.
      let canonical: string;
      try {
        canonical = normalizeThreadPath(path);
      } catch {
        return false;
      }
      return refusal(pathCheck(setup.tool, 'fs.read', canonical)) === null;
    },
    command: (argv) => enforce(commandCheck(setup.tool, argv)),
    host: (host) => enforce(hostCheck(setup.tool, canonicalHostName(host))),
    childAgent(agent) {
      if (setup.childAgents.has(agent)) return;
      const allowed = [...setup.childAgents].sort();
      throw new AccessDenied(
        `"${agent}" is not an agent this prompt can start; it can start: ${allowed.length > 0 ? allowed.join(', ') : '(none)'}`,
      );
    },
  };
}
