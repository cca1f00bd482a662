/**
 * The MCP endpoint as the OpenAPI document declares it (THR-5): `POST /mcp` takes a JSON-RPC
 * message of the MCP protocol (or a batch) and answers an event stream, `202` for a notification,
 * or a JSON-RPC error; `GET` and `DELETE` are 405 (the endpoint is stateless).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { AUTH_FAILURES, failure, json } from '../contract/index.js';

const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional().describe('Absent on notifications'),
    method: z.string().optional().describe('`initialize`, `tools/list`, `tools/call`, `notifications/...`'),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('JsonRpcMessage');

const JsonRpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).nullable(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  })
  .openapi('JsonRpcError');

export const mcpPost = createRoute({
  method: 'post',
  path: '/',
  operationId: 'mcp',
  tags: ['mcp'],
  summary: 'MCP endpoint (Streamable HTTP, protocol 2025-06-18, stateless)',
  description:
    'One tool per agent (a message in; the final answer and the thread id out), plus `list_threads` and ' +
    '`read_thread` over your threads. Progress notifications stream while a turn runs.',
  request: {
    headers: z.object({
      accept: z.string().openapi({ example: 'application/json, text/event-stream' }),
    }),
    body: {
      required: true,
      content: { 'application/json': { schema: z.union([JsonRpcMessage, z.array(JsonRpcMessage)]) } },
    },
  },
  responses: {
    200: {
      description: 'An event stream: progress notifications, then the JSON-RPC response',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    202: { description: 'A notification (such as `notifications/cancelled`) was accepted' },
    400: json(JsonRpcError, 'Not a valid JSON-RPC message'),
    406: json(JsonRpcError, 'The Accept header lacks `application/json` and `text/event-stream`'),
    413: json(JsonRpcError, 'The body is over 1 MiB'),
    415: json(JsonRpcError, 'The body is not `application/json`'),
    ...AUTH_FAILURES,
  },
});

const notAllowed = (method: 'get' | 'delete', operationId: string, summary: string) =>
  createRoute({
    method,
    path: '/',
    operationId,
    tags: ['mcp'],
    summary,
    responses: { 405: failure('`method_not_allowed` (`Allow: POST`)'), ...AUTH_FAILURES },
  });

export const mcpGetNotAllowed = notAllowed(
  'get',
  'mcpGetNotAllowed',
  'Not offered: there is no server-initiated stream',
);
export const mcpDeleteNotAllowed = notAllowed('delete', 'mcpDeleteNotAllowed', 'Not offered: there are no sessions');
