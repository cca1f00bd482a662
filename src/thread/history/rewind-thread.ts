/**
 * Rewinding a thread in place (FORK-6): the log after a point is removed and the files are put back
 * as they were at that point, from the file history. What a removed call did outside the thread (a
 * message sent, a payment made) cannot be taken back, so a rewind over a call of a tool that is
 * neither `readOnly` nor `idempotent` is refused unless the caller says `force`.
 *
 * The removed messages leave the log (listings and the model's context no longer hold them); the
 * stream's frames are its history and stay: a client replaying them meets a `message_deleted`
 * naming the removed messages, then `rewound`, after the frames that had shown them.
 */
import type { Registry } from '../../engine/registry/index.js';
import type { Message } from '../../spec/index.js';
import { fail, ok, type RpcResult } from '../bindings/index.js';
import { holdTurn } from '../turn/index.js';
import { expiredHistory, type HistoryDesk, historyOf } from './history-desk.js';
import { logPoint } from './log-points.js';

/** A removed call whose tool may have changed something outside the thread. */
export interface SideEffectCall {
  tool_call_id: string;
  tool: string;
}

/** The calls in `removed` of tools the registry does not know as readOnly or idempotent (MCP tools included). */
export function sideEffectCalls(registry: Registry, removed: readonly Message[]): SideEffectCall[] {
  const calls: SideEffectCall[] = [];
  for (const message of removed) {
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      const definition = registry.resolvedTool(call.function.name)?.definition;
      if (definition?.readOnly === true || definition?.idempotent === true) continue;
      calls.push({ tool_call_id: call.id, tool: call.function.name });
    }
  }
  return calls;
}

export interface Rewound {
  removed: number;
  restored: number;
}

/** Rewinds the thread to message `to`; see the file's header. */
export async function rewindThread(
  desk: HistoryDesk,
  request: { to: string; force: boolean },
): Promise<RpcResult<Rewound>> {
  if (desk.busy) {
    return fail({
      status: 409,
      code: 'thread_busy',
      message: 'a turn runs or waits for an answer: stop it, or wait for it to end, before rewinding',
    });
  }
  const log = desk.store.messages();
  const point = logPoint(log, request.to);
  if (!point.ok) return point;
  const removed = log.slice(point.index + 1);
  const calls = request.force ? [] : sideEffectCalls(desk.registry, removed);
  if (calls.length > 0) {
    return fail({
      status: 409,
      code: 'side_effects',
      message: `calls after this point may have changed things outside the thread (${calls.map((call) => call.tool).join(', ')}); rewinding does not undo them: send force: true to rewind anyway`,
      details: { calls },
    });
  }
  const expired = expiredHistory(desk, log, point.message.seq);
  if (expired) return fail(expired);
  // Files first: a rewind cut short leaves the whole log, which a second rewind finishes.
  const restored = await historyOf(desk).restore(point.message.seq, desk.files.unrecorded());
  const ids = removed.map((message) => message.id);
  if (ids.length > 0) {
    desk.store.deleteMessages(ids);
    desk.emit({ type: 'message_deleted', message_ids: ids });
  }
  // Idle until sent a message, even when the log now ends with one of the user's or a call's result.
  holdTurn(desk.meta, desk.store.messages());
  desk.emit({ type: 'rewound', to: point.message.id });
  return ok({ removed: ids.length, restored });
}
