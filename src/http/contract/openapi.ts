/**
 * The OpenAPI document of the HTTP surface (THR-5), built from the same Zod schemas that validate
 * requests, so the two cannot drift apart.
 */
import { z } from 'zod';
import {
  AnswersBody,
  ApprovalsBody,
  CreateThreadBody,
  DeferredVariablesBody,
  ListMessagesQuery,
  ListThreadsQuery,
  PostMessageBody,
  SecretsBody,
  ToolResultsBody,
} from './schemas.js';

function schema(type: z.ZodType) {
  const { $schema: _ignored, ...json } = z.toJSONSchema(type, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json;
}

function queryParameters(type: z.ZodObject) {
  const json = schema(type) as { properties?: Record<string, unknown> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));
}

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const json = (description: string) => ({ description, content: { 'application/json': { schema: {} } } });
const jsonBody = (type: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(type) } } });
const threadId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const filePath = {
  name: 'path',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'Path in the thread filesystem',
};

export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Standard Agents runtime for Cloudflare Workers',
      version: '0.1.0',
      description: 'Threads are Durable Objects; drive them over HTTPS and a WebSocket.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorSchema },
    },
    paths: {
      '/api/agents': {
        get: { summary: 'Agents, their prompts and tools with JSON Schemas', responses: { 200: json('The agents') } },
      },
      '/api/threads': {
        post: {
          summary: 'Create a thread',
          requestBody: jsonBody(CreateThreadBody),
          responses: {
            201: json('The new thread'),
            400: error(
              'Invalid body, unknown agent, missing_variables (details.missing lists the names), or secret_too_short (a secret value under 8 characters; nothing is created)',
            ),
          },
        },
        get: {
          summary: 'List your threads, newest first',
          parameters: queryParameters(ListThreadsQuery),
          responses: { 200: json('{ threads, next_cursor }') },
        },
      },
      '/api/threads/{id}': {
        get: {
          summary: 'Thread metadata, status and children',
          parameters: [threadId],
          responses: { 200: json('The thread'), 404: error('No such thread') },
        },
        delete: {
          summary: 'Stop and delete the thread, its files and index row',
          parameters: [threadId],
          responses: { 204: { description: 'Deleted' }, 404: error('No such thread') },
        },
      },
      '/api/threads/{id}/messages': {
        post: {
          summary: 'Post a user message; starts a turn, or is queued while one runs',
          parameters: [
            threadId,
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } },
          ],
          requestBody: jsonBody(PostMessageBody),
          responses: {
            202: json('{ messageId, queued, replayed }'),
            400: error('Invalid body'),
            404: error('No such thread'),
          },
        },
        get: {
          summary: 'Read the message log in pages',
          parameters: [threadId, ...queryParameters(ListMessagesQuery)],
          responses: { 200: json('{ messages, next_after }'), 404: error('No such thread') },
        },
      },
      '/api/threads/{id}/stream': {
        get: {
          summary: 'WebSocket of numbered frames; ?after=<seq> replays what was missed; ?token= may carry the key',
          parameters: [
            threadId,
            { name: 'after', in: 'query', schema: { type: 'integer' } },
            { name: 'token', in: 'query', schema: { type: 'string' } },
          ],
          responses: { 101: { description: 'Switching protocols' }, 400: error('Not a WebSocket upgrade') },
        },
      },
      '/api/threads/{id}/answers': {
        post: {
          summary: 'Answer a waiting question tool call: one list of answers per question',
          parameters: [threadId],
          requestBody: jsonBody(AnswersBody),
          responses: {
            200: json('The thread, resumed'),
            400: error('Invalid body, or not one list per question'),
            409: error('The call does not wait for answers, or was answered already'),
          },
        },
      },
      '/api/threads/{id}/approvals': {
        post: {
          summary: 'Approve (once or always) or reject a call waiting for approval',
          parameters: [threadId],
          requestBody: jsonBody(ApprovalsBody),
          responses: {
            200: json('The thread, resumed'),
            409: error('The call does not wait for approval, or was answered already'),
          },
        },
      },
      '/api/threads/{id}/secrets': {
        post: {
          summary:
            'Enter the credential a store_secret call waits for (VAR-5): sealed into the thread variables, never shown to the model',
          parameters: [threadId],
          requestBody: jsonBody(SecretsBody),
          responses: {
            200: json('The thread, resumed; the call is answered with { stored: true }'),
            400: error('Invalid body, or secret_too_short: the value is under 8 characters (the call keeps waiting)'),
            409: error('The call does not wait for a secret, or was answered already'),
            500: error('secrets_key_missing: the SECRETS_KEY Worker secret is not set'),
          },
        },
      },
      '/api/threads/{id}/tool-results': {
        post: {
          summary: "Deliver a client tool's output or a human-in-the-loop answer for a waiting call",
          parameters: [threadId],
          requestBody: jsonBody(ToolResultsBody),
          responses: {
            200: json('The thread, resumed'),
            400: error("The output does not match the client tool's output schema"),
            409: error('The call does not wait for a tool result, or was answered already'),
          },
        },
      },
      '/api/threads/{id}/variables/{requestId}': {
        get: {
          summary: 'A deferred child request: the agent and the variables it lacks (subagent_env_required)',
          parameters: [threadId, { name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: json('{ request_id, agent, missing, created_at }'), 404: error('No such request') },
        },
        post: {
          summary: 'Give the missing values and boot the deferred child',
          parameters: [threadId, { name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: jsonBody(DeferredVariablesBody),
          responses: {
            200: json('{ child_id }'),
            400: error('Required variables are still missing (details.missing), or secret_too_short'),
            404: error('No such request'),
          },
        },
      },
      '/api/threads/{id}/stop': {
        post: {
          summary: 'Abort the running step',
          parameters: [threadId],
          responses: { 200: json('The thread'), 404: error('No such thread') },
        },
      },
      '/mcp': {
        post: {
          summary:
            'MCP endpoint (Streamable HTTP, protocol 2025-06-18, stateless): one tool per agent, plus list_threads and read_thread',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { description: 'A JSON-RPC message of the MCP protocol' } } },
          },
          parameters: [
            {
              name: 'Accept',
              in: 'header',
              required: true,
              schema: { type: 'string', example: 'application/json, text/event-stream' },
            },
          ],
          responses: {
            200: {
              description: 'An event stream: progress notifications, then the JSON-RPC response',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            202: { description: 'A notification (such as notifications/cancelled) was accepted' },
            401: error('Missing or invalid key; WWW-Authenticate: Bearer'),
          },
        },
        get: { summary: 'Not offered: the endpoint is stateless', responses: { 405: error('Use POST') } },
        delete: { summary: 'Not offered: the endpoint has no sessions', responses: { 405: error('Use POST') } },
      },
      '/api/threads/{id}/files/{path}': {
        get: {
          summary: 'Download a file (streamed) or list a folder',
          parameters: [threadId, filePath],
          responses: {
            200: { description: 'The file bytes, or { path, entries } for a folder' },
            400: error('Invalid path'),
            404: error('No such file'),
          },
        },
        put: {
          summary: 'Upload a file (streamed; Content-Length required)',
          parameters: [threadId, filePath],
          requestBody: { required: true, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
          responses: {
            201: json('The AttachmentRef'),
            400: error('Invalid path'),
            411: error('No Content-Length'),
            413: error('Too large'),
          },
        },
      },
    },
  };
}
