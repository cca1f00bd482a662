/**
 * The parts of the official MCP SDK's server `/mcp` uses, gathered in one module that mcp-route.ts
 * imports on the first `/mcp` request rather than when the Worker starts: the SDK builds hundreds of
 * zod schemas when it loads, and most Workers are never asked for `/mcp`. It holds the SDK alone, so
 * loading it later delays nothing else; only types of the SDK may be imported elsewhere in this room.
 */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export { CancelledNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
// Ajv, the SDK's default validator, compiles schemas to code, which workerd forbids.
export { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
