/**
 * A call's result through the tool-call hooks before it is stored (HOOK-9): `after_tool_call_success`
 * or `after_tool_call_failure` (by its status; a failure's hook may recover it with a success
 * result, and a thrown tool arrives here as an error result), then `before_store_tool_result`. A
 * hook's `null` drops the call: nothing of its result is stored, and the model is never sent it again.
 */
import type { Message, ToolCall, ToolResult } from '../../spec/index.js';
import type { FrameSink, ThreadStore } from '../ports/index.js';
import { recordDroppedCall } from './dropped-calls.js';
import { DROPPED, type HookRunner } from './hook-runner.js';

/** The result to store, or the marker of a dropped call (already stored and announced). */
export async function resultThroughHooks(
  hooks: HookRunner,
  call: ToolCall,
  result: ToolResult,
  store: ThreadStore,
  emit: FrameSink,
): Promise<ToolResult | { dropped: Message }> {
  const kept = await hooks.afterToolCall(call, result);
  if (kept === DROPPED) {
    const dropped = recordDroppedCall(store, call);
    emit({ type: 'event', event: 'tool_call_dropped', data: { tool_call_id: call.id, name: call.function.name } });
    return { dropped };
  }
  return hooks.beforeStoreToolResult(call, kept);
}
