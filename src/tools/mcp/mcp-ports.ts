/**
 * What the MCP client needs from the thread that runs it: storage that outlives the object (so an
 * evicted thread reconnects without the model noticing), a fetch that passes the egress policy, the
 * thread's variable values, and where an OAuth authorization server sends the user back.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** One tool as the server listed it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: unknown;
  annotations?: { title?: string; readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
}

/** What a thread keeps of a server it has listed. */
export interface McpServerRecord {
  /** The URL the record belongs to: a different one (a changed variable) lists again. */
  url: string;
  /** Streamable HTTP's `mcp-session-id`, resumed after an eviction. */
  sessionId?: string;
  protocolVersion?: string;
  tools: McpToolInfo[];
  listedAt: number;
}

/** A server's OAuth state. Holds tokens: the thread seals it at rest like a secret variable (VAR-3). */
export interface McpCredentials {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** PKCE verifier of an authorization under way. */
  codeVerifier?: string;
  /**
   * The authorization server's URL the SDK built for it. Never handed out as it is: a browser the
   * user starts the authorization in gets it with a `state` bound to that browser.
   */
  authorizationUrl?: string;
  /** The one-time link a keyed request made to start it in a browser: the hash of its secret, its deadline. */
  start?: { hash: string; expiresAt: number };
  /** The `state` a browser was sent with, and the hash of the nonce in that browser's cookie. */
  state?: string;
  binding?: { nonceHash: string; expiresAt: number };
}

export interface McpStorage {
  record(server: string): McpServerRecord | null;
  saveRecord(server: string, record: McpServerRecord): void;
  credentials(server: string): Promise<McpCredentials | null>;
  saveCredentials(server: string, credentials: McpCredentials): Promise<void>;
}

export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface McpHost {
  threadId: string;
  storage: McpStorage;
  /** Every request to a server or its authorization server: the egress policy and the rules' denies. */
  fetch: McpFetch;
  /** Why the thread's rules deny contacting a host (a `net.fetch` deny), or null. */
  refused(host: string): string | null;
  /** The thread's variable values, secrets included, for `{NAME}` in URLs and headers. */
  variables(): Readonly<Record<string, string>>;
  /** The Worker's OAuth callback URL; null when the deployment has not set one (no OAuth then). */
  oauthCallbackUrl: string | null;
  /** Told of each new listing, for what the Worker shows of its agents' servers. */
  listed?(server: string, record: McpServerRecord): void;
}
