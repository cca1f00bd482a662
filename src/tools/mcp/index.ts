/**
 * MCP client tools (LOCK-4, KIND-8): the tools of the MCP servers an agent or prompt declares, as
 * tools of the thread under the same contract as every other tool. The thread supplies storage, a
 * checked fetch and its variables (`McpHost`); this room speaks MCP through the official SDK.
 */
export { McpHub } from './mcp-hub.js';
export { MCP_NAME_SEPARATOR, mcpToolName } from './mcp-names.js';
export { McpAuthorizationRequired } from './mcp-oauth.js';
export type { McpCredentials, McpFetch, McpHost, McpServerRecord, McpStorage, McpToolInfo } from './mcp-ports.js';
