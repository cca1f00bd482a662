/**
 * Types for mcp-http.mjs, the HTTP plumbing of the local MCP servers: session routing for the SDK's
 * Streamable HTTP and HTTP+SSE server transports, request recording, listening on loopback.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** One HTTP request a local MCP server received. */
export interface RecordedMcpRequest {
  method: string;
  /** Without the query string. */
  path: string;
  query: Record<string, string>;
  /** All of them, with lower-case names as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The JSON-RPC `method` of each request and notification in the body (none for responses). */
  mcpMethods: string[];
  /** The tool name of a `tools/call` in the body. */
  tool: string | undefined;
  /** The `mcp-session-id` header, or the SSE transport's `sessionId` query parameter. */
  sessionId: string | undefined;
  /** The response status once its head is sent (undefined before). */
  readonly status: number | undefined;
}

export function readBody(req: IncomingMessage): Promise<string>;
/** The parsed JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown;
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void;
export function jsonRpcError(
  code: number,
  message: string,
): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
export function recordRequest(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): RecordedMcpRequest;
export function headerValue(req: IncomingMessage, name: string): string | undefined;
export function requestUrl(req: IncomingMessage, origin: string): URL;

export interface StreamableSessions {
  /** Routes by `mcp-session-id`; an `initialize` without one opens a session; an unknown id gets 404. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, auth?: AuthInfo): Promise<void>;
  count(): number;
  /** Forgets every session and closes its transport. */
  drop(): Promise<void>;
}

export function createStreamableSessions(options: {
  newMcpServer: () => McpServer;
  jsonResponse?: boolean;
}): StreamableSessions;

export interface SseSessions {
  /** Opens the event stream of a `GET`; its `endpoint` event names `postPath?sessionId=...`. */
  open(res: ServerResponse): Promise<void>;
  post(req: IncomingMessage, res: ServerResponse, body: unknown, sessionId: string | undefined): Promise<void>;
  count(): number;
  drop(): Promise<void>;
}

export function createSseSessions(options: { newMcpServer: () => McpServer; postPath: string }): SseSessions;

/** Serves `handle` on 127.0.0.1; port 0 (the default) picks a free one. */
export function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  port?: number,
): Promise<{ server: Server; origin: string; port: number }>;

/** Stops listening and cuts open connections. */
export function closeServer(server: Server): Promise<void>;
