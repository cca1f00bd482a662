/**
 * The messages a model sees when a call cannot run (EXE-1). Each names the problem precisely so the
 * model can correct itself on its next step.
 */
import type { z } from 'zod';
import type { InteractionKind } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';

export function unknownToolMessage(name: string, known: readonly string[]): string {
  const list = known.length > 0 ? known.join(', ') : '(none)';
  return `Unknown tool "${name}". Available tools: ${list}.`;
}

export function malformedArgumentsMessage(name: string, error: unknown): string {
  return `Arguments for tool "${name}" are not valid JSON: ${(error as Error).message}. Send a JSON object.`;
}

export function invalidArgumentsMessage(name: string, error: z.ZodError): string {
  return `Invalid arguments for tool "${name}": ${describeIssues(error)}.`;
}

export function timeoutMessage(name: string, ms: number): string {
  return `Tool "${name}" timed out after ${ms} ms and was aborted.`;
}

export const STOPPED_MESSAGE = 'The thread was stopped while this tool was running.';

/** What a call of an interrupted turn that had not started is answered (a new message took the thread). */
export const INTERRUPTED_MESSAGE =
  'A new message interrupted the turn before this tool ran; it was not run. Call it again if it is still needed.';

/**
 * The reason a turn's signal carries when a new message interrupts it: unlike a stop, a running tool
 * is not cut (its result is stored), and the calls not started are answered with INTERRUPTED_MESSAGE.
 */
export class TurnInterrupted extends Error {
  constructor() {
    super('interrupted by a new message');
    this.name = 'TurnInterrupted';
  }
}

/** What a call that will not run is answered once the turn's signal has fired. */
export function abortedCallMessage(signal: AbortSignal): string {
  return signal.reason instanceof TurnInterrupted ? INTERRUPTED_MESSAGE : STOPPED_MESSAGE;
}

export function interruptedMessage(name: string): string {
  return `Tool "${name}" was interrupted by a restart before it finished; it was not run again because it is not declared idempotent. Call it again if it is still needed.`;
}

/** The fixed refusals of a headless thread (LOCK-1 question, PERM-2 ask): nobody can answer. */
export function headlessMessage(kind: InteractionKind, reason?: string): string {
  switch (kind) {
    case 'question':
      return 'No human can answer questions on this thread (it is headless). Proceed with your best judgement.';
    case 'secret':
      return 'No human can enter credentials on this thread (it is headless). Tell the user about the credential problem instead.';
    case 'mcp_auth':
      return `${reason ? `${reason} ` : ''}An MCP server needs a user to authorize this thread (OAuth), and this thread is headless (no user to ask). Tell the user the server needs authorization.`;
    case 'approval':
      return `${reason ? `${reason} ` : ''}This call needs a human's approval, and this thread is headless (no human to ask), so it is denied.`;
    default:
      return 'This tool needs a client to answer, and this thread is headless (no client to ask).';
  }
}

export function rejectedMessage(name: string, reason: string | undefined): string {
  const why = reason?.trim() ? `: ${reason.trim().replace(/[.!?]?$/, (end) => end || '.')}` : '.';
  return `The user rejected the call to tool "${name}"${why} It was not run.`;
}

/** `Error: ` prefixes at the start of a tool's error text, however many layers of rethrowing added. */
const ERROR_PREFIXES = /^(?:Error: )+/;

/**
 * A tool's error text without the `Error: ` its thrower already put in front: the stored content
 * adds exactly one, so an error passed up through nested calls (a program's tool call inside
 * run_code) never reads `Error: Error: …`.
 */
export function errorTextOf(text: string): string {
  return text.replace(ERROR_PREFIXES, '');
}
