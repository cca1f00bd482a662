/**
 * The doom-loop breaker (EXE-7): a model that repeats the same failing call learns nothing new from
 * the third identical error, so the turn stops there with an explanation instead of burning steps.
 */
import type { Message, ToolCall } from '../../spec/index.js';

/** Identical failures in a row that end the turn. */
export const REPEATED_FAILURE_LIMIT = 3;

/** The explanation when the newest tool results of the turn are one call failing the same way, else null. */
export function repeatedFailure(log: readonly Message[]): string | null {
  const calls = new Map<string, ToolCall>();
  const newest: Message[] = [];
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.depth > 0) continue;
    if (message.role === 'user') break;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) calls.set(call.id, call);
    if (message.role === 'tool' && newest.length < REPEATED_FAILURE_LIMIT) newest.push(message);
  }
  if (newest.length < REPEATED_FAILURE_LIMIT) return null;
  const signatures = newest.map((message) => {
    const call = calls.get(message.tool_call_id ?? '');
    return message.tool_status === 'error' && call
      ? JSON.stringify([call.function.name, call.function.arguments, message.content])
      : null;
  });
  if (signatures.some((signature) => signature === null || signature !== signatures[0])) return null;
  const name = newest[0]?.name ?? 'unknown';
  return `Stopped: tool "${name}" failed ${REPEATED_FAILURE_LIMIT} times in a row with the same arguments and the same error: ${newest[0]?.content}`;
}
