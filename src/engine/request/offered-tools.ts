/**
 * Which tools a step offers the model, among those whose `optional` flag is on (SUB-3, checked by
 * conversation's `flagOn`): deferred ones only once tool_search has loaded them (KIND-8), lifecycle
 * tools when they apply (SUB-4), in the request's function-tool shape.
 */

import { toolValueKey } from '../execute/index.js';
import type { ModelTool, ThreadStore } from '../ports/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { LOADED_TOOLS_KEY } from '../registry/index.js';

/** Whether the tools offered can change from one step to the next. */
export function offerChanges(tools: readonly ResolvedTool[]): boolean {
  return tools.some((tool) => tool.definition.deferred || tool.needsInstances);
}

/**
 * The tools sent to the model: deferred ones only once tool_search has loaded them (KIND-8),
 * `subagent_message` only once the thread has an instance to message (SUB-4).
 */
export function offeredTools(tools: readonly ResolvedTool[], store: ThreadStore, anyInstance: boolean): ResolvedTool[] {
  const loaded = new Set((store.getValue(toolValueKey(LOADED_TOOLS_KEY)) as string[] | undefined) ?? []);
  return tools.filter(
    (tool) => (!tool.definition.deferred || loaded.has(tool.name)) && (!tool.needsInstances || anyInstance),
  );
}

export function modelTools(tools: readonly ResolvedTool[]): ModelTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.definition.description, parameters: tool.parameters },
  }));
}
