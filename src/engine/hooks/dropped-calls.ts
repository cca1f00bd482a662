/**
 * Tool calls a hook dropped (HOOK-9): `after_tool_call_success` or `_failure` returned null. The
 * call's result is never stored; a silent marker without content stands in its place, so the log
 * stays well-formed and a restarted thread never runs the call again, and from then on the model is
 * never sent the call or its marker. The call stays in its assistant message as what the model
 * asked for. The dropped ids are kept under one key the store holds in memory: a step of a thread
 * with none costs one lookup.
 */
import type { Message, ToolCall } from '../../spec/index.js';
import type { ThreadStore } from '../ports/index.js';

export const DROPPED_CALLS_KEY = 'hooks:dropped_calls';
/** The metadata key that marks a dropped call's stand-in. */
export const DROPPED_BY_HOOK = 'dropped_by_hook';

/** Stores the marker of a dropped call (no content, silent) and remembers its id. */
export function recordDroppedCall(store: ThreadStore, call: ToolCall): Message {
  const dropped = (store.getValue(DROPPED_CALLS_KEY) as string[] | undefined) ?? [];
  store.setValue(DROPPED_CALLS_KEY, [...dropped, call.id]);
  return store.append({
    role: 'tool',
    content: '',
    name: call.function.name,
    tool_call_id: call.id,
    silent: true,
    tool_status: 'success',
    metadata: { [DROPPED_BY_HOOK]: true },
  });
}

/** The history without dropped calls: their assistant messages lose them, their markers go. */
export function withoutDroppedCalls(store: ThreadStore, history: readonly Message[]): readonly Message[] {
  const ids = store.getValue(DROPPED_CALLS_KEY) as string[] | undefined;
  if (!ids || ids.length === 0) return history;
  const dropped = new Set(ids);
  const kept: Message[] = [];
  for (const message of history) {
    if (message.role === 'tool' && dropped.has(message.tool_call_id ?? '')) continue;
    const calls = message.tool_calls;
    if (message.role !== 'assistant' || !calls?.some((call) => dropped.has(call.id))) {
      kept.push(message);
      continue;
    }
    const left = calls.filter((call) => !dropped.has(call.id));
    if (left.length === 0 && !message.content) continue;
    kept.push({ ...message, tool_calls: left.length > 0 ? left : null });
  }
  return kept;
}
