/**
 * The MCP room's door (THR-5): the Worker as an MCP server. `/mcp` speaks the Streamable HTTP
 * transport and offers one tool per agent of the application (a message in, the agent's final
 * answer and the thread id out) plus `list_threads` and `read_thread` over the caller's threads.
 * Turns are followed through the thread's own frame stream; cancelling a call stops its turn.
 */
export { type McpOptions, mcpRoutes } from './mcp-route.js';
