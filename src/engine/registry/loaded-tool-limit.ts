/**
 * Automatic deferral (DEFER-1): a prompt that offers more tools than its `maxLoadedTools` sends only
 * that many with their descriptions and schemas; the others are offered by name and wait behind
 * `tool_search`, exactly as if their author had marked them `deferred` (KIND-8). A model shown a
 * hundred schemas chooses worse and pays for every one of them on every step.
 *
 * Which stay loaded: `tool_search` itself (without it the rest would be out of reach), then the
 * built-ins the prompt offers in the order it lists them, then every other tool in the order the
 * author wrote them (the prompt's list, then the tools the runtime adds, then MCP servers' tools in
 * the order the servers list them). A tool marked `deferred` is always deferred and takes no place.
 */
import type { ResolvedTool } from './types.js';

/** The built-in that loads deferred tools (tools/session/tool-search.ts). */
export const TOOL_SEARCH = 'tool_search';

/** A tool offered by name only, whether its author or the limit deferred it. */
function asDeferred(tool: ResolvedTool): ResolvedTool {
  return tool.definition.deferred ? tool : { ...tool, definition: { ...tool.definition, deferred: true } };
}

/** The order in which tools claim the loaded places: tool_search, the built-ins, then the others. */
function loadOrder(tools: readonly ResolvedTool[], builtins: ReadonlySet<string>): ResolvedTool[] {
  const rank = (tool: ResolvedTool) => (tool.name === TOOL_SEARCH ? 0 : builtins.has(tool.name) ? 1 : 2);
  // Array.prototype.sort is stable: within a rank the author's order holds.
  return tools.filter((tool) => !tool.definition.deferred).sort((a, b) => rank(a) - rank(b));
}

/**
 * The tools a prompt offers with those past `limit` deferred, in their original order. `toolSearch`
 * is added when the prompt does not offer it and something had to be deferred; with no tool_search
 * registered at all nothing is deferred, so no tool becomes unreachable.
 */
export function withLoadedToolLimit(
  tools: readonly ResolvedTool[],
  limit: number,
  builtins: ReadonlySet<string>,
  toolSearch: ResolvedTool | undefined,
): ResolvedTool[] {
  const loaded = loadOrder(tools, builtins);
  if (loaded.length <= limit) return [...tools];
  const offersSearch = tools.some((tool) => tool.name === TOOL_SEARCH);
  if (!offersSearch && !toolSearch) return [...tools];
  // tool_search added by the runtime takes one of the places.
  const kept = new Set(loaded.slice(0, offersSearch ? limit : Math.max(limit - 1, 0)).map((tool) => tool.name));
  const limited = tools.map((tool) => (kept.has(tool.name) ? tool : asDeferred(tool)));
  return offersSearch || !toolSearch ? limited : [toolSearch, ...limited];
}
