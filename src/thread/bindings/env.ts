/**
 * The Worker bindings and variables the runtime reads (wrangler.toml names them).
 */
import type { ProviderEnv } from '../../providers/index.js';
import type { TenantRpc } from './tenant-api.js';
import type { ThreadRpc } from './thread-api.js';

export interface RuntimeEnv extends ProviderEnv {
  /** The Thread Durable Object namespace. */
  THREADS: DurableObjectNamespace<ThreadRpc>;
  /**
   * The Tenant Durable Object namespace: one object per tenant counts its rate limits, turn slots and
   * spend quotas (IDN-5, IDN-6). Absent: nothing is limited.
   */
  TENANTS?: DurableObjectNamespace<TenantRpc>;
  /**
   * Default limits of every tenant, JSON: `{ "tenant": {...}, "principal": {...} }`, each with any of
   * requestsPerMinute, threadsPerHour, concurrentTurns, tokensPerDay, costPerDay (IDN-5, IDN-6).
   */
  TENANT_LIMITS?: string;
  /** Thread filesystems (ATT-1). */
  FILES: R2Bucket;
  /** The thread index (THR-1). */
  DB: D1Database;
  /**
   * Comma-separated bearer keys, each `<key>` or `<key>:<role>`; each key is one subject of the default
   * tenant (THR-6, IDN-1).
   */
  API_KEYS?: string;
  /** The bootstrap admin key: the default tenant's `admin`, which issues the first keys (IDN-2). */
  ADMIN_KEY?: string;
  /** Master key for secret variables (VAR-3). */
  SECRETS_KEY?: string;
  /**
   * Development hosts `state.fetch` may reach although the egress policy refuses them:
   * comma-separated `host` or `host:port`, e.g. `127.0.0.1:8080,searxng.internal`. Unset in production.
   * Webhook endpoints on these hosts may also be plain http (WH-5).
   */
  EGRESS_ALLOW_HOSTS?: string;
  /**
   * The Worker's public origin, e.g. `https://agents.example.com`: where an MCP server's OAuth
   * authorization server sends the user back (`/oauth/mcp/callback`). Without it, no OAuth.
   */
  PUBLIC_URL?: string;
  /**
   * The fewest seconds allowed between two ticks of one schedule (a cron expression firing more often
   * is refused with 400 `invalid_cron`); default 60. Tests set it lower to use six-field second crons.
   */
  SCHEDULE_MIN_INTERVAL_SECONDS?: string;
  /** Upload size limit in bytes (ATT-5). */
  MAX_UPLOAD_BYTES?: string;
  /**
   * Sign-in with an identity provider's JWTs (IDN-3): the URL of the provider's JSON Web Key Set
   * (https; http only for a host listed in EGRESS_ALLOW_HOSTS). Needs JWT_ISSUER and JWT_AUDIENCE.
   */
  JWT_JWKS_URL?: string;
  /** The `iss` every accepted token carries (IDN-3). */
  JWT_ISSUER?: string;
  /** The accepted `aud` values, comma-separated (IDN-3). */
  JWT_AUDIENCE?: string;
  /** Accepted signature algorithms, comma-separated; default `RS256,ES256,EdDSA,PS256`, never `none` or HS* (IDN-3). */
  JWT_ALGORITHMS?: string;
  /** The claim naming a token's tenant; unset: every token belongs to JWT_DEFAULT_TENANT (IDN-3). */
  JWT_TENANT_CLAIM?: string;
  /** The tenant of tokens when JWT_TENANT_CLAIM is unset; default `default` (IDN-3). */
  JWT_DEFAULT_TENANT?: string;
  /** The claim naming a token's subject; default `sub` (IDN-3). */
  JWT_SUBJECT_CLAIM?: string;
  /** The claim holding a token's role, a role name or a list of them (the highest counts); default `role` (IDN-3). */
  JWT_ROLE_CLAIM?: string;
  /** The role of a token without the role claim; default `member` (IDN-3). */
  JWT_DEFAULT_ROLE?: string;
  /** `cloudflare-access`: the key URL and issuer come from CF_ACCESS_TEAM_DOMAIN; JWT_AUDIENCE is the AUD tag (IDN-3). */
  JWT_PRESET?: string;
  /** The Cloudflare Access team domain, e.g. `https://myteam.cloudflareaccess.com` (IDN-3). */
  CF_ACCESS_TEAM_DOMAIN?: string;
  /** Isolates for `state.runCode` programs (CODE-1): `[[worker_loaders]] binding = "LOADER"`. */
  LOADER?: WorkerLoader;
  /**
   * MCP clients' OAuth 2.1 sign-in to `/mcp` (IDN-7): registered clients, grants and hashed tokens.
   * Without it OAuth is off and `/mcp` takes keys and identity-provider tokens only.
   */
  OAUTH_KV?: KVNamespace;
}
