/**
 * Types for mcp-servers.mjs, the local MCP servers (on the official SDK's server side) that tests,
 * `npm run dev` and the benchmarks use: the test tool set over Streamable HTTP and HTTP+SSE, the
 * same behind OAuth 2.1, and an offline demo server.
 */
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { RecordedMcpRequest } from './mcp-http.mjs';
import type { RecordedAuthorizeRequest, RecordedTokenRequest } from './mcp-oauth.mjs';
import type { RecordedToolCall } from './mcp-tools.mjs';

export type { RecordedMcpRequest } from './mcp-http.mjs';
export type { RecordedAuthorizeRequest, RecordedTokenRequest } from './mcp-oauth.mjs';
export type { CatalogTool, ConversionResult, RecordedToolCall, WorldClockResult } from './mcp-tools.mjs';
export { CATALOG_TOOLS, convertUnits, EXPLODE_MESSAGE, PIXEL_PNG_BASE64, worldClock } from './mcp-tools.mjs';

export interface McpServerOptions {
  /** `basic` leaves out the 200 catalog tools (7 tools instead of 207); default `all`. */
  tools?: 'all' | 'basic';
  /** Waited, cancellably, before every tool call. */
  delayMs?: number;
  /**
   * Streamable HTTP answers POSTs with `application/json` instead of an event stream; the spec allows
   * both and a client must handle either. Default false.
   */
  jsonResponse?: boolean;
}

export interface McpTestServer {
  /** The Streamable HTTP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The HTTP+SSE transport's GET endpoint, `http://127.0.0.1:PORT/sse` (messages go to `/messages`). */
  readonly sseUrl: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** Every HTTP request received, in order. */
  readonly requests: RecordedMcpRequest[];
  /** Every tool handler run, in order, on both transports. */
  readonly calls: RecordedToolCall[];
  /** Tool calls stopped by their request's signal (a `notifications/cancelled`, or a closed session). */
  cancelled(): number;
  /** Live Streamable HTTP sessions. */
  sessions(): number;
  /**
   * Forgets every Streamable HTTP session at once and closes its streams, as a restarted server
   * would: a request with an old `mcp-session-id` gets 404, and the client must initialize again.
   */
  dropSessions(): void;
  close(): Promise<void>;
}

/**
 * The test tools: `echo`, `pixel`, `fetch_doc`, `fail`, `explode`, `slow`, `whoami` and
 * `catalog_000`...`catalog_199`, over stateful Streamable HTTP at `/mcp` and HTTP+SSE at `/sse`.
 */
export function startMcpServer(options?: McpServerOptions): Promise<McpTestServer>;

export interface OAuthMcpServerOptions {
  /** Lifetime of access tokens; default 3600. `expireTokens()` ends them at once instead. */
  accessTokenTtlSeconds?: number;
}

export interface OAuthMcpServer {
  /** `http://127.0.0.1:PORT/mcp`, which needs a bearer token. */
  readonly url: string;
  readonly origin: string;
  /** `<origin>/.well-known/oauth-protected-resource`, named in every 401 challenge. */
  readonly resourceMetadataUrl: string;
  /** Every HTTP request received, the OAuth endpoints included. */
  readonly requests: RecordedMcpRequest[];
  readonly calls: RecordedToolCall[];
  /** Dynamic client registrations, as answered. */
  readonly registrations: OAuthClientInformationFull[];
  /** Every access and refresh token issued, in order. */
  readonly tokensIssued: string[];
  readonly authorizeRequests: RecordedAuthorizeRequest[];
  readonly tokenRequests: RecordedTokenRequest[];
  /** Every secret handed out (tokens, authorization codes, client secrets): none may leak. */
  secrets(): string[];
  /** Ends every access token's life now, so the next request gets 401 `invalid_token`. */
  expireTokens(): void;
  /** Forgets every access and refresh token: only a new authorization gets in. */
  revokeTokens(): void;
  sessions(): number;
  dropSessions(): void;
  close(): Promise<void>;
}

/** `echo` and `whoami` at `/mcp` behind OAuth 2.1, with the authorization server on the same origin. */
export function startOAuthMcpServer(options?: OAuthMcpServerOptions): Promise<OAuthMcpServer>;

export interface DemoMcpServer {
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  readonly origin: string;
  close(): Promise<void>;
}

/** `convert_units` and `world_clock` over Streamable HTTP at `/mcp`; port 0 (the default) picks a free one. */
export function startDemoMcpServer(port?: number): Promise<DemoMcpServer>;
