/**
 * The MCP client of a thread (LOCK-4): the hub of `tools/mcp` with the thread's SQLite storage,
 * sealed OAuth credentials, the egress policy and rules, and the OAuth callback's completion.
 */

export { completeMcpAuthorization } from './oauth-callback.js';
export type { ThreadMcpHost } from './thread-mcp.js';
export { MCP_OAUTH_CALLBACK_PATH, ThreadMcp } from './thread-mcp.js';
