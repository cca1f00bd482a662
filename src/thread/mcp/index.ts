/**
 * The MCP client of a thread (LOCK-4): the hub of `tools/mcp` with the thread's SQLite storage,
 * sealed OAuth credentials, the egress policy and rules, and an OAuth authorization bound to the
 * browser that starts it: its one-time start link, its start in that browser, its callback.
 */

export { BROWSER_STATE_TTL_MS, START_LINK_TTL_MS } from './browser-binding.js';
export { completeMcpAuthorization } from './oauth-callback.js';
export { beginMcpAuthorization, mcpStartLink } from './oauth-start.js';
export type { ThreadMcpHost } from './thread-mcp.js';
export { MCP_OAUTH_CALLBACK_PATH, ThreadMcp } from './thread-mcp.js';
