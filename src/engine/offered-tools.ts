/**
 * Which tools a step offers the model: those whose `optional` flag is on (SUB-3), deferred ones only
 * once tool_search has loaded them (KIND-8), in the request's function-tool shape.
 */
import { LOADED_TOOLS_KEY } from './deferred-tools.js';
import type { ModelTool } from './provider.js';
import type { ResolvedTool } from './registry.js';
import { toolValueKey } from './thread-state.js';
import type { ThreadStore } from './thread-store.js';

/** An `optional` flag variable is on when it says true, 1 or yes, in any case (SUB-3). */
export function flagOn(variables: Readonly<Record<string, string>> | undefined, flag: string | undefined): boolean {
  return flag === undefined || /^(true|1|yes)$/i.test((variables?.[flag] ?? '').trim());
}

/** The tools sent to the model: deferred ones only once tool_search has loaded them (KIND-8). */
export function offeredTools(tools: readonly ResolvedTool[], store: ThreadStore): ResolvedTool[] {
  const loaded = new Set((store.getValue(toolValueKey(LOADED_TOOLS_KEY)) as string[] | undefined) ?? []);
  return tools.filter((tool) => !tool.definition.deferred || loaded.has(tool.name));
}

export function modelTools(tools: readonly ResolvedTool[]): ModelTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.definition.description, parameters: tool.parameters },
  }));
}
