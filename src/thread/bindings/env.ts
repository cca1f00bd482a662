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
   */
  EGRESS_ALLOW_HOSTS?: string;
  /**
   * The Worker's public origin, e.g. `https://agents.example.com`: where an MCP server's OAuth
   * authorization server sends the user back (`/oauth/mcp/callback`). Without it, no OAuth.
   */
  PUBLIC_URL?: string;
  /** Upload size limit in bytes (ATT-5). */
  MAX_UPLOAD_BYTES?: string;
  /** Isolates for `state.runCode` programs (CODE-1): `[[worker_loaders]] binding = "LOADER"`. */
  LOADER?: WorkerLoader;
}
