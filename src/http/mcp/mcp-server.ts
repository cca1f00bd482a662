/**
 * The MCP server of one request (THR-5): the official SDK's McpServer offering the application's
 * agents (agent-tools.ts) and the caller's threads (thread-tools.ts). Built per request because the
 * endpoint is stateless: any isolate answers any request, and a server instance serves one.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAgentTools } from './agent-tools.js';
import { type McpCallContext, stopThread } from './call-context.js';
import { cancelCall } from './cancellations.js';
import type * as ServerSdk from './mcp-server-sdk.js';
import { registerThreadTools } from './thread-tools.js';

const INSTRUCTIONS =
  'Each agent tool sends a message to that agent and answers with its final text and a thread_id. ' +
  'Pass thread_id to continue the conversation; list_threads and read_thread show your threads. ' +
  'A turn that waits for a human says what it waits for.';

/** `sdk` is mcp-server-sdk.ts, loaded by the first `/mcp` request. */
export function buildMcpServer(sdk: typeof ServerSdk, context: McpCallContext): McpServer {
  const { CancelledNotificationSchema, CfWorkerJsonSchemaValidator, McpServer } = sdk;
  const server = new McpServer(
    { name: 'standard-agents', version: '0.1.0' },
    { instructions: INSTRUCTIONS, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  registerAgentTools(server, context);
  registerThreadTools(server, context);
  // The SDK's own handler looks only at this server's calls, and this server has none: the call
  // runs in the request that started it (cancellations.ts).
  server.server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const { requestId, reason } = notification.params;
    if (requestId === undefined) return;
    const call = cancelCall(context.principal, requestId, reason ?? 'cancelled by the client');
    if (call?.threadId) stopThread(context, call.threadId);
  });
  return server;
}
