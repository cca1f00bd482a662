/**
 * The parts of the official MCP SDK's client a thread uses, gathered in one module that
 * mcp-connection.ts imports on first use: the SDK builds hundreds of zod schemas when it loads, and
 * most Workers start and answer many requests without ever connecting to an MCP server. Only types
 * of the SDK may be imported elsewhere in this room.
 */
export { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { McpError } from '@modelcontextprotocol/sdk/types.js';
// Ajv, the SDK's default validator, compiles schemas to code, which workerd forbids.
export { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
