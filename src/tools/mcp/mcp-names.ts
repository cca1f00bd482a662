/**
 * The names MCP tools get in a thread: `<server>__<tool>`, so two servers' tools never collide and
 * a rule or a log line tells at once which server a call went to. Model APIs accept at most 64
 * characters of `[a-zA-Z0-9_-]`; a server's tool name outside that is shortened or cleaned, with a
 * hash of the original kept so two such names stay distinct.
 */

export const MCP_NAME_SEPARATOR = '__';
const MAX_TOOL_NAME = 64;
const HASH_LENGTH = 8;

/** FNV-1a: a stable short fingerprint; not a security boundary. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, '0');
}

export function mcpToolName(server: string, tool: string): string {
  const clean = tool.replace(/[^a-zA-Z0-9_-]/g, '_');
  const name = `${server}${MCP_NAME_SEPARATOR}${clean}`;
  if (clean === tool && name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - HASH_LENGTH - 1)}_${fingerprint(tool)}`;
}
