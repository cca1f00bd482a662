/**
 * A thread's MCP client (LOCK-4): for each server a prompt names, the tools the thread offers, from
 * the listing stored in the thread when there is one (an evicted thread needs no round trip and the
 * model sees the same tools), else by connecting and listing on first use. Calls go through one
 * connection per server for the object's lifetime, resuming the stored session after an eviction.
 * Every failure the model could act on comes back as an error result it can read.
 */
import { canonicalHostName } from '../../engine/egress/index.js';
import type { ResolvedTool } from '../../engine/registry/index.js';
import { ATTR, activeSpan, spanNames } from '../../engine/tracing/index.js';
import type { McpServerConfig, ToolResult } from '../../spec/index.js';
import { DEFAULT_MCP_TIMEOUT_MS, fillPlaceholders, placeholders } from '../../spec/internal.js';
import { isMcpError, McpConnection, type McpEndpoint, type McpSession } from './mcp-connection.js';
import { mcpToolName } from './mcp-names.js';
import { McpAuthorizationRequired, ThreadOAuthProvider } from './mcp-oauth.js';
import type { McpHost, McpServerRecord } from './mcp-ports.js';
import { mcpToolResult } from './mcp-result.js';
import { type McpToolCaller, mcpConnectTool, mcpServerTools } from './mcp-tools.js';

/** Raised for a server whose URL or headers cannot be filled from the thread's variables. */
class McpConfigError extends Error {}

function message(error: unknown): string {
  if (isMcpError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export class McpHub implements McpToolCaller {
  private readonly connections = new Map<string, McpConnection>();
  /** Sessions begun by a listing not stored yet: the record is written once the listing succeeds. */
  private readonly pendingSessions = new Map<string, McpSession>();
  /** Each server's stored record as last read or written: asked for before every model step. */
  private readonly records = new Map<string, McpServerRecord | null>();
  /** Each server's tools as built from its record, rebuilt only when the record or config changes. */
  private readonly built = new Map<
    string,
    { record: McpServerRecord; config: McpServerConfig; tools: ResolvedTool[] }
  >();

  constructor(private readonly host: McpHost) {}

  private record(server: string): McpServerRecord | null {
    if (!this.records.has(server)) this.records.set(server, this.host.storage.record(server));
    return this.records.get(server) ?? null;
  }

  private saveRecord(server: string, record: McpServerRecord): void {
    this.host.storage.saveRecord(server, record);
    this.records.set(server, record);
  }

  /** The server's endpoint with the thread's values filled in. */
  private endpoint(server: string, config: McpServerConfig): McpEndpoint {
    const values = this.host.variables();
    const fill = (template: string, what: string) => {
      const missing = placeholders(template).filter((name) => values[name] === undefined);
      if (missing.length > 0) {
        throw new McpConfigError(`the ${what} of MCP server "${server}" needs the variable ${missing.join(', ')}`);
      }
      return fillPlaceholders(template, values);
    };
    let url: URL;
    try {
      url = new URL(fill(config.url, 'url'));
    } catch (error) {
      if (error instanceof McpConfigError) throw error;
      throw new McpConfigError(`the url of MCP server "${server}" is not a URL once filled in`);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(config.headers ?? {})) headers[name] = fill(value, `header ${name}`);
    return { server, url, transport: config.transport ?? 'streamable-http', headers };
  }

  private connection(endpoint: McpEndpoint, config: McpServerConfig): McpConnection {
    const key = `${endpoint.server} ${endpoint.url.href}`;
    let connection = this.connections.get(key);
    if (!connection) {
      const { oauthCallbackUrl } = this.host;
      const stored = this.record(endpoint.server);
      connection = new McpConnection(endpoint, {
        fetch: this.host.fetch,
        oauth: oauthCallbackUrl ? new ThreadOAuthProvider(this.host, endpoint.server, config, oauthCallbackUrl) : null,
        session: stored?.url === endpoint.url.href ? stored : null,
        onSession: (session) => {
          const record = this.record(endpoint.server);
          if (record?.url === endpoint.url.href) this.saveRecord(endpoint.server, { ...record, ...session });
          else this.pendingSessions.set(key, session);
        },
      });
      this.connections.set(key, connection);
    }
    return connection;
  }

  /** Connects and lists the server's tools, storing them with the session. */
  private async list(server: string, config: McpServerConfig, signal: AbortSignal): Promise<McpServerRecord> {
    const endpoint = this.endpoint(server, config);
    const connection = this.connection(endpoint, config);
    const tools = await connection.listTools(signal);
    const key = `${server} ${endpoint.url.href}`;
    const previous = this.record(server);
    const session = this.pendingSessions.get(key) ?? (previous?.url === endpoint.url.href ? previous : {});
    this.pendingSessions.delete(key);
    const record: McpServerRecord = {
      url: endpoint.url.href,
      ...(session.sessionId ? { sessionId: session.sessionId } : {}),
      ...(session.protocolVersion ? { protocolVersion: session.protocolVersion } : {}),
      tools,
      listedAt: Date.now(),
    };
    this.saveRecord(server, record);
    this.host.listed?.(server, record);
    return record;
  }

  /**
   * The tools of `servers` for one turn. A server listed before is served from storage; one not yet
   * listed is listed now; one that fails (unreachable, refused, needs authorization) is offered as
   * its connect tool. A host the thread's rules deny is not contacted at all.
   */
  async toolsFor(servers: Readonly<Record<string, McpServerConfig>>, signal: AbortSignal): Promise<ResolvedTool[]> {
    const lists = await Promise.all(
      Object.entries(servers).map(async ([server, config]) => {
        let host = '';
        try {
          const endpoint = this.endpoint(server, config);
          host = canonicalHostName(endpoint.url.hostname);
          const denied = this.host.refused(host);
          if (denied) return mcpConnectTool(server, config, host, denied, this);
          const stored = this.record(server);
          const record = stored?.url === endpoint.url.href ? stored : await this.list(server, config, signal);
          return this.toolsOf(server, config, host, record);
        } catch (error) {
          if (error instanceof McpConfigError) {
            console.warn(`[standard-agents] ${error.message}`);
            return [];
          }
          const reason =
            error instanceof McpAuthorizationRequired ? 'it needs the user to authorize this thread' : message(error);
          return mcpConnectTool(server, config, host, reason, this);
        }
      }),
    );
    return lists.flat();
  }

  /** The server's tools, its connect tool among them unoffered (a call made before it connected still runs). */
  private toolsOf(server: string, config: McpServerConfig, host: string, record: McpServerRecord): ResolvedTool[] {
    const built = this.built.get(server);
    if (built?.record.listedAt === record.listedAt && built.record.url === record.url && built.config === config) {
      return built.tools;
    }
    const connect = { ...mcpConnectTool(server, config, host, 'connected', this), hidden: true };
    const tools = [...mcpServerTools(server, config, host, record.tools, this), connect];
    this.built.set(server, { record, config, tools });
    return tools;
  }

  async call(
    server: string,
    config: McpServerConfig,
    tool: string,
    args: unknown,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    // TRACE-3: the request to the server is a client span of the call; the server may continue the trace.
    const span = activeSpan().child(spanNames.mcp('tools/call', tool), 'client', {
      [ATTR.mcpMethod]: 'tools/call',
      [ATTR.toolName]: tool,
      [ATTR.mcpServer]: server,
    });
    try {
      const endpoint = this.endpoint(server, config);
      const result = await this.connection(endpoint, config).callTool(tool, args, {
        signal,
        timeout: config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
        traceparent: span.traceparent,
      });
      if (result.isError) span.fail(`the server answered the call to "${tool}" with an error`, 'tool_error');
      else span.ok();
      return mcpToolResult(result, tool);
    } catch (error) {
      span.fail(error);
      if (error instanceof McpAuthorizationRequired) throw error;
      if (signal.aborted) throw error;
      return { status: 'error', error: `The MCP server "${server}" failed the call to "${tool}": ${message(error)}` };
    } finally {
      span.end();
    }
  }

  async connect(server: string, config: McpServerConfig, signal: AbortSignal): Promise<ToolResult> {
    try {
      const record = await this.list(server, config, signal);
      const allowed = config.tools ? new Set(config.tools) : null;
      const names = record.tools
        .filter((tool) => !allowed || allowed.has(tool.name))
        .map((tool) => mcpToolName(server, tool.name));
      return {
        status: 'success',
        result: `Connected to "${server}": ${names.length} tools are offered from the next step on${names.length > 0 ? `: ${names.join(', ')}` : ''}.`,
      };
    } catch (error) {
      if (error instanceof McpAuthorizationRequired) throw error;
      return { status: 'error', error: `Could not connect to the MCP server "${server}": ${message(error)}` };
    }
  }

  /** Completes an authorization the user gave (the callback's code); the next call uses the tokens. */
  async finishAuthorization(server: string, config: McpServerConfig, code: string): Promise<void> {
    const endpoint = this.endpoint(server, config);
    await this.connection(endpoint, config).finishAuthorization(code);
  }
}
