/**
 * Deferred tools (KIND-8): a tool marked `deferred` is offered to the model by name only, in the
 * system prompt, until `tool_search` loads it; from then on its description and schema are sent.
 */

/** The thread value (as tools see it) holding the names of the deferred tools loaded so far. */
export const LOADED_TOOLS_KEY = 'tool_search.loaded';

export interface SearchableTool {
  name: string;
  description: string;
}

function score(tool: SearchableTool, words: readonly string[]): number {
  // The name as written too: `catalog_042` finds `catalog__catalog_042`.
  const haystack = `${tool.name} ${tool.name.replace(/_/g, ' ')} ${tool.description}`.toLowerCase();
  const exact = words.includes(tool.name.toLowerCase()) ? 10 : 0;
  return exact + words.filter((word) => haystack.includes(word)).length;
}

/** The deferred tools matching a query, best first: an exact name, then the most matching words. */
export function rankDeferredTools(tools: readonly SearchableTool[], query: string, limit: number): SearchableTool[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter(Boolean);
  return tools
    .map((tool) => ({ tool, score: score(tool, words) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, limit)
    .map((entry) => entry.tool);
}
