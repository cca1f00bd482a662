/**
 * What the persisted log says about the turn (THR-3): where it started (the last user message), the
 * calls still waiting for results, whether a round limit holds them (KIND-7), whether the thread has
 * work, how many steps and rounds the turn has taken. The loop decides everything from these, never
 * from memory, so a restarted thread picks up exactly where it stopped.
 */
import type { Message, ToolCall } from '../../spec/index.js';
import { DROPPED_BY_HOOK } from '../hooks/index.js';
import { turnEndOf, unmarkedAnswer } from './sides.js';

/** Index of the last user message of the main conversation (or of the nested run at `depth`), or -1. */
export function lastUserIndex(messages: readonly Message[], depth = 0): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user' && message.depth === depth) return index;
  }
  return -1;
}

/** The calls of the newest assistant message at `depth` (the main conversation by default) without a tool message yet. */
export function pendingToolCalls(log: readonly Message[], depth = 0): ToolCall[] {
  const answered = new Set<string>();
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.role === 'tool' && message.tool_call_id) answered.add(message.tool_call_id);
    if (message.role === 'assistant' && message.depth === depth) {
      return (message.tool_calls ?? []).filter((call) => !answered.has(call.id));
    }
  }
  return [];
}

/** The newest assistant step of the main conversation (or of the nested run at `depth`). */
export function newestStep(log: readonly Message[], depth = 0): Message | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.role === 'assistant' && message.depth === depth) return message;
  }
  return undefined;
}

/** KIND-7: the newest step's calls were refused by the round limit. */
export function heldByRoundLimit(log: readonly Message[], depth = 0): Message | undefined {
  const step = newestStep(log, depth);
  return step?.metadata?.round_limit === true ? step : undefined;
}

/** Whether a user message (one the model sees) came after `step`. */
export function userAfter(log: readonly Message[], step: Message): boolean {
  return log.some(
    (message) => message.seq > step.seq && message.role === 'user' && !message.silent && message.depth === 0,
  );
}

/** Whether the newest step's calls are held by the round limit: new messages then go through the queue. */
export function hasHeldCalls(log: readonly Message[]): boolean {
  return pendingToolCalls(log).length > 0 && heldByRoundLimit(log) !== undefined;
}

/**
 * Whether the log asks for a turn: calls without results, or a user or tool message unanswered.
 * Calls held by the round limit wait for a user message (KIND-7).
 */
export function needsTurn(log: readonly Message[]): boolean {
  if (pendingToolCalls(log).length > 0 && !heldByRoundLimit(log)) return true;
  const last = lastVisible(log, true);
  if (!last) return false;
  const end = turnEndOf(last);
  // DEF-6: a turn marker names the side that goes next, or none once the session is over.
  if (end) return end.next !== null;
  // A dual_ai side's answer not yet followed by its marker: the session goes on.
  if (unmarkedAnswer(log)) return true;
  return last.role === 'user' || last.role === 'tool';
}

/** Model steps since the last user message (of the main conversation, or of the nested run at `depth`). */
export function stepsThisTurn(log: readonly Message[], depth = 0): number {
  let steps = 0;
  const turnStart = lastUserIndex(log, depth);
  for (let index = log.length - 1; index > turnStart; index--) {
    const message = log[index] as Message;
    if (message.role === 'assistant' && message.depth === depth) steps++;
  }
  return steps;
}

/** Tool rounds run since the last user message: steps with calls the round limit did not hold. */
export function roundsThisTurn(log: readonly Message[], depth = 0): number {
  let rounds = 0;
  const turnStart = lastUserIndex(log, depth);
  for (let index = log.length - 1; index > turnStart; index--) {
    const message = log[index] as Message;
    if (message.role !== 'assistant' || message.depth !== depth || !message.tool_calls?.length) continue;
    if (message.metadata?.round_limit !== true) rounds++;
  }
  return rounds;
}

/**
 * The newest message of the main conversation a model sees; with `markers`, turn markers count too.
 * A call a hook dropped (HOOK-9) counts as answered by its silent marker: the loop goes on after it.
 */
export function lastVisible(log: readonly Message[], markers = false): Message | undefined {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.depth !== 0) continue;
    if (!message.silent || (markers && turnEndOf(message)) || isDroppedCall(message)) return message;
  }
  return undefined;
}

/** The silent marker standing for a call a hook dropped (hooks/dropped-calls.ts). */
function isDroppedCall(message: Message): boolean {
  return message.role === 'tool' && message.silent && message.metadata?.[DROPPED_BY_HOOK] === true;
}
