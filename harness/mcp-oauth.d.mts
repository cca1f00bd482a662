/**
 * Types for mcp-oauth.mjs, the in-memory OAuth 2.1 authorization server and bearer-token guard of the
 * local OAuth-protected MCP server (RFC 9728, 8414, 7591, 7636, 8707, 6750).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface RecordedAuthorizeRequest {
  /** The query parameters as received. */
  params: Record<string, string>;
  /** The OAuth error answered, if any. */
  error: string | undefined;
}

export interface RecordedTokenRequest {
  grantType: string;
  clientId: string | undefined;
  /**
   * For `authorization_code`: whether the code verifier matched the S256 challenge; undefined when
   * the request failed before the check, and for other grants.
   */
  pkceVerified: boolean | undefined;
  /** The RFC 8707 `resource` parameter. */
  resource: string | undefined;
  /** The OAuth error answered, if any. */
  error: string | undefined;
}

export type Authentication =
  | { ok: true; authInfo: AuthInfo }
  | { ok: false; error: string | undefined; description: string };

export interface OAuthAuthority {
  /** `<origin>/mcp`: the resource tokens are issued for. */
  readonly resource: string;
  /** `<origin>/.well-known/oauth-protected-resource`. */
  readonly resourceMetadataUrl: string;
  /** Answers the well-known, `/register`, `/authorize` and `/token` endpoints; false for other paths. */
  route(req: IncomingMessage, res: ServerResponse, url: URL, rawBody: string): boolean;
  /** Checks the request's bearer token. */
  authenticate(req: IncomingMessage): Authentication;
  /** Sends 401 with the `WWW-Authenticate` challenge for a failed authentication. */
  challenge(res: ServerResponse, failure: { error: string | undefined; description: string }): void;
  readonly registrations: OAuthClientInformationFull[];
  /** Every access and refresh token issued, in order. */
  readonly tokensIssued: string[];
  readonly authorizeRequests: RecordedAuthorizeRequest[];
  readonly tokenRequests: RecordedTokenRequest[];
  /** Every secret handed out: tokens, authorization codes, client secrets. */
  secrets(): string[];
  /** Ends every access token's life now; refresh tokens stay good. */
  expireTokens(): void;
  /** Forgets every access and refresh token, so only a new authorization gets in. */
  revokeTokens(): void;
}

export function createOAuthAuthority(options: {
  origin: string;
  /** Default `/mcp`. */
  resourcePath?: string;
  /** Default 3600. */
  accessTokenTtlSeconds?: number;
}): OAuthAuthority;

/** RFC 7636 §4.6: whether BASE64URL(SHA256(verifier)) equals the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean;
