/**
 * MCP tool names for the application's agents (THR-5). Agent names are free text; tool names are
 * not: the MCP specification allows `A-Z a-z 0-9 _ - .` and 1 to 128 characters, and widely used
 * clients (those that hand tools to OpenAI-style function calling) accept only `A-Za-z0-9_-` and 64.
 * Names are kept to what both accept; a name that collides with another or with a thread tool gets
 * a numbered suffix, in registry order, so the same application always gets the same names.
 */
import type { Registry } from '../../engine/registry/index.js';

const MAX_LENGTH = 64;

/** The tools the endpoint offers besides the agents. */
export const THREAD_TOOL_NAMES = ['list_threads', 'read_thread'] as const;

function sanitize(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+|[_-]+$/g, '');
  return (cleaned || 'agent').slice(0, MAX_LENGTH);
}

const cache = new WeakMap<Registry, Map<string, string>>();

/** Agent name → tool name, for every agent of the application. */
export function agentToolNames(registry: Registry): Map<string, string> {
  const known = cache.get(registry);
  if (known) return known;
  const taken = new Set<string>(THREAD_TOOL_NAMES);
  const names = new Map<string, string>();
  for (const agent of registry.agents.keys()) {
    const base = sanitize(agent);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    names.set(agent, name);
  }
  cache.set(registry, names);
  return names;
}
