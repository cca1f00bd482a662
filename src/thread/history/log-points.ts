/**
 * Which messages of a log a thread may be forked or rewound at (FORK-4): any message outside a tool
 * round. A round runs from an assistant message with tool calls to the last of its results; a point
 * inside it (the assistant message itself, a result with sibling results after it, a nested run's
 * messages in between) would leave calls without answers, which no provider accepts. A round whose
 * results are not all in the log yet runs to the end of the log.
 */
import type { Message } from '../../spec/index.js';
import type { ApiError } from '../bindings/index.js';

/** For each message of the log, whether it is inside a tool round. */
function insideRounds(log: readonly Message[]): boolean[] {
  const inside = log.map(() => false);
  const resultAt = new Map<string, number>();
  log.forEach((message, index) => {
    if (message.role === 'tool' && message.tool_call_id) resultAt.set(message.tool_call_id, index);
  });
  log.forEach((message, start) => {
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    if (calls.length === 0) return;
    let end = start;
    for (const call of calls) {
      const at = resultAt.get(call.id);
      end = Math.max(end, at === undefined || at < start ? log.length : at);
    }
    // The last result closes the round: it is a valid point, everything before it is not.
    for (let index = start; index < Math.min(end, log.length); index++) inside[index] = true;
  });
  return inside;
}

/** The point `id` names, or why it cannot be one. */
export type PointAnswer = { ok: true; index: number; message: Message } | { ok: false; error: ApiError };

/** Finds message `id` in `log` and checks it is outside every tool round. */
export function logPoint(log: readonly Message[], id: string): PointAnswer {
  const index = log.findIndex((message) => message.id === id);
  const message = log[index];
  if (!message) {
    return { ok: false, error: { status: 404, code: 'message_not_found', message: `no message ${id} in this thread` } };
  }
  const inside = insideRounds(log);
  if (!inside[index]) return { ok: true, index, message };
  let before: string | null = null;
  for (let at = index - 1; at >= 0 && before === null; at--) if (!inside[at]) before = log[at]?.id ?? null;
  let after: string | null = null;
  for (let at = index + 1; at < log.length && after === null; at++) if (!inside[at]) after = log[at]?.id ?? null;
  return {
    ok: false,
    error: {
      status: 409,
      code: 'point_mid_round',
      message: `message ${id} is inside a tool round: fork or rewind at the nearest point before or after it`,
      details: { before, after },
    },
  };
}

/** The oldest valid point whose seq is above `seq` (the oldest a bounded history still reaches), or null. */
export function firstPointAbove(log: readonly Message[], seq: number): string | null {
  const inside = insideRounds(log);
  const index = log.findIndex((message, at) => message.seq > seq && !inside[at]);
  return index === -1 ? null : (log[index]?.id ?? null);
}
