/**
 * A thread's MCP client (LOCK-4) as the Durable Object runs it: one hub per object, its storage in
 * the thread's SQLite, every request through the egress policy and the thread's `net.fetch` denies,
 * and the steps of an OAuth authorization bound to the browser that starts it (browser-binding.ts).
 */
import { canonicalHost, egressPolicy, outboundFetch } from '../../engine/egress/index.js';
import { hostRefusal, threadRules } from '../../engine/permissions/index.js';
import type { Registry, ResolvedTool } from '../../engine/registry/index.js';
import type { McpServerConfig } from '../../spec/index.js';
import { EgressRefused } from '../../spec/index.js';
import { McpHub, type McpServerRecord, mcpToolName } from '../../tools/mcp/index.js';
import { type RuntimeEnv, ThreadIndex } from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { SqliteThreadStore } from '../storage/index.js';
import { beginInBrowser, claimCallback, issueStartLink } from './browser-binding.js';
import { SqliteMcpStorage } from './mcp-storage.js';

/** The path of the OAuth callback route, under the Worker's PUBLIC_URL. */
export const MCP_OAUTH_CALLBACK_PATH = '/oauth/mcp/callback';

export interface ThreadMcpHost {
  ctx: DurableObjectState;
  env: RuntimeEnv;
  registry: Registry;
  variables: ThreadVariables;
  store(): SqliteThreadStore;
}

export class ThreadMcp {
  private hub: McpHub | null = null;
  private storageCache: SqliteMcpStorage | null = null;
  private values: Readonly<Record<string, string>> = {};

  constructor(private readonly host: ThreadMcpHost) {}

  private threadId(): string {
    return this.host.store().info.id;
  }

  /** The thread's permission rules as they are now (PERM-1): session rules change during a thread. */
  private rules() {
    const { registry } = this.host;
    const store = this.host.store();
    const agent = registry.agent(store.info.agentId);
    return agent ? threadRules(store, agent, registry.projectRules) : [];
  }

  /** The MCP servers the thread's agent and its prompts declare, by name. */
  private servers(): Readonly<Record<string, McpServerConfig>> {
    const agent = this.host.registry.agent(this.host.store().info.agentId);
    return agent ? this.host.registry.mcpServersFor(agent) : {};
  }

  private storage(): SqliteMcpStorage {
    const { ctx, env } = this.host;
    this.storageCache ??= new SqliteMcpStorage(ctx.storage, this.threadId(), env.SECRETS_KEY, (values) =>
      this.host.variables.protect(values),
    );
    return this.storageCache;
  }

  private ready(): McpHub {
    if (this.hub) return this.hub;
    const { env } = this.host;
    const egress = egressPolicy(env.EGRESS_ALLOW_HOSTS ?? '');
    // One check of the thread's rules, as they are now (session rules change): before a server is
    // listed, and on every hop of every request to it or its authorization server.
    const refused = (host: string) => hostRefusal(this.rules(), host);
    this.hub = new McpHub({
      threadId: this.threadId(),
      storage: this.storage(),
      fetch: (url, init) =>
        outboundFetch(
          {
            egress,
            checkHost: (target) => {
              const reason = refused(canonicalHost(target));
              if (reason) throw new EgressRefused(reason, target.href);
            },
          },
          url,
          init,
        ),
      refused,
      variables: () => this.values,
      oauthCallbackUrl: env.PUBLIC_URL ? new URL(MCP_OAUTH_CALLBACK_PATH, env.PUBLIC_URL).href : null,
      listed: (server, record) => this.recordListing(server, record),
    });
    return this.hub;
  }

  /** Off the turn's path: GET /api/agents shows the newest listing of each agent's servers. */
  private recordListing(server: string, record: McpServerRecord): void {
    const agent = this.host.store().info.agentId;
    const tools = record.tools.map((tool) => ({
      name: mcpToolName(server, tool.name),
      server_name: tool.name,
      description: tool.description ?? '',
    }));
    const write = new ThreadIndex(this.host.env.DB)
      .recordMcpListing(agent, server, tools, record.listedAt)
      .catch((error) => this.host.variables.logError(`MCP listing not indexed: ${(error as Error).message}`));
    this.host.ctx.waitUntil(write);
  }

  private async openVariables(): Promise<void> {
    this.values = (await this.host.variables.open()).resolved.values;
  }

  async connectedTools(
    servers: Readonly<Record<string, McpServerConfig>>,
    signal: AbortSignal,
  ): Promise<readonly ResolvedTool[]> {
    await this.openVariables();
    return this.ready().toolsFor(servers, signal);
  }

  /** Exchanges the authorization server's `code` for `server`'s tokens, sealed in storage. */
  async authorize(server: string, code: string): Promise<void> {
    await this.openVariables();
    const hub = this.ready();
    const config = this.servers()[server];
    if (!config) throw new Error(`the agent declares no MCP server "${server}"`);
    await hub.finishAuthorization(server, config, code);
  }

  /** Step 1 of browser-binding.ts: a one-time link that starts `server`'s authorization in a browser. */
  startLink(server: string) {
    return issueStartLink(this.storage(), this.threadId(), server, Date.now());
  }

  /** Step 2: a browser opened the link; `nonceHash` is the hash of the nonce its cookie holds. */
  beginInBrowser(ticket: string, nonceHash: string) {
    return beginInBrowser(this.storage(), this.threadId(), ticket, nonceHash, Date.now());
  }

  /** Step 3: a browser came back with `state`; the server it completes, its state spent, or why not. */
  claimCallback(state: string, nonceHash: string | null) {
    return claimCallback(this.storage(), state, nonceHash, Date.now());
  }
}
