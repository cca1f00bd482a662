/**
 * One thread's connection to one MCP server, through the official SDK's client: Streamable HTTP
 * (resuming the session id the thread stored, so an evicted thread carries on in the same session)
 * or, for servers that predate it, HTTP with SSE. A session the server forgot (404) is opened again
 * once, transparently. The thread opens no standalone GET stream: it would hold the object awake
 * for notifications it does not use; each call's answer streams on the call's own response.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTransport } from '../../spec/index.js';
import { McpAuthorizationRequired, type ThreadOAuthProvider } from './mcp-oauth.js';
import type { McpFetch, McpToolInfo } from './mcp-ports.js';

const CLIENT_INFO = { name: 'standard-agents-cloudflare', version: '0.1.0' };

type ClientSdk = typeof import('./mcp-client-sdk.js');
/** The SDK once a connection has loaded it; until then no error can be one of its classes. */
let loadedSdk: ClientSdk | null = null;

async function clientSdk(): Promise<ClientSdk> {
  loadedSdk ??= await import('./mcp-client-sdk.js');
  return loadedSdk;
}

/** Whether an error is the SDK's JSON-RPC error (a server's own error answer). */
export function isMcpError(error: unknown): error is Error {
  return loadedSdk !== null && error instanceof loadedSdk.McpError;
}
/** Pages of `tools/list` read at most: 100 pages is far beyond any real server. */
const MAX_LIST_PAGES = 100;

export interface McpEndpoint {
  server: string;
  url: URL;
  transport: McpTransport;
  headers: Record<string, string>;
}

export interface McpSession {
  sessionId?: string;
  protocolVersion?: string;
}

export interface McpConnectionDeps {
  fetch: McpFetch;
  oauth: ThreadOAuthProvider | null;
  /** The session last stored for this server, if any. */
  session: McpSession | null;
  /** Called when a new session starts, to store it. */
  onSession(session: McpSession): void;
}

/** The transport's fetch: no standalone GET stream on Streamable HTTP (405 is the spec's "none offered"). */
function withoutStandaloneStream(fetch: McpFetch, transport: McpTransport): McpFetch {
  if (transport !== 'streamable-http') return fetch;
  return (url, init) =>
    (init?.method ?? 'GET').toUpperCase() === 'GET'
      ? Promise.resolve(new Response(null, { status: 405 }))
      : fetch(url, init);
}

function isSessionGone(error: unknown): boolean {
  return loadedSdk !== null && error instanceof loadedSdk.StreamableHTTPError && error.code === 404;
}

export class McpConnection {
  private client: Promise<Client> | null = null;

  constructor(
    readonly endpoint: McpEndpoint,
    private readonly deps: McpConnectionDeps,
  ) {}

  private makeTransport(sdk: ClientSdk, session: McpSession | null) {
    const { SSEClientTransport, StreamableHTTPClientTransport } = sdk;
    const { endpoint, deps } = this;
    const options = {
      fetch: withoutStandaloneStream(deps.fetch, endpoint.transport),
      requestInit: { headers: endpoint.headers },
      ...(deps.oauth ? { authProvider: deps.oauth } : {}),
    };
    if (endpoint.transport === 'sse') return new SSEClientTransport(endpoint.url, options);
    return new StreamableHTTPClientTransport(endpoint.url, {
      ...options,
      ...(session?.sessionId ? { sessionId: session.sessionId } : {}),
    });
  }

  /**
   * The open client: resumes the stored session when there is one, else initializes a new one.
   * Calls made together share one opening, so they share one session.
   */
  private open(resume: boolean): Promise<Client> {
    this.client ??= this.connect(resume).catch((error) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  private async connect(resume: boolean): Promise<Client> {
    const sdk = await clientSdk();
    const { Client, CfWorkerJsonSchemaValidator, StreamableHTTPClientTransport } = sdk;
    const session = resume && this.endpoint.transport === 'streamable-http' ? this.deps.session : null;
    const transport = this.makeTransport(sdk, session);
    const client = new Client(CLIENT_INFO, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => {});
      throw this.explain(error);
    }
    if (session?.sessionId && session.protocolVersion && transport instanceof StreamableHTTPClientTransport) {
      // A resumed session skips `initialize`; the protocol header must still say what it agreed.
      transport.setProtocolVersion(session.protocolVersion);
    } else {
      const sessionId = transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
      const protocolVersion =
        transport instanceof StreamableHTTPClientTransport ? transport.protocolVersion : undefined;
      this.deps.onSession({
        ...(sessionId ? { sessionId } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
      });
    }
    return client;
  }

  /** Runs `work` on an open client; a session the server no longer knows is replaced once. */
  private async withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await work(await this.open(true));
    } catch (error) {
      if (!isSessionGone(error)) throw this.explain(error);
      await this.close();
      try {
        return await work(await this.open(false));
      } catch (retryError) {
        throw this.explain(retryError);
      }
    }
  }

  /** An authorization the SDK began becomes a wait the thread can show; other errors pass. */
  private explain(error: unknown): unknown {
    if (error instanceof McpAuthorizationRequired || loadedSdk === null) return error;
    const { StreamableHTTPError, UnauthorizedError } = loadedSdk;
    if (error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && error.code === 401)) {
      const url = this.deps.oauth?.authorizationUrl;
      if (url) return new McpAuthorizationRequired(this.endpoint.server, url);
      return new Error(
        `the MCP server "${this.endpoint.server}" refused the credentials (401)${
          this.deps.oauth ? '' : '; it may need OAuth, which needs the PUBLIC_URL variable set for the callback'
        }`,
      );
    }
    return error;
  }

  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    return this.withClient(async (client) => {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const listed = await client.listTools(cursor ? { cursor } : {}, { ...(signal ? { signal } : {}) });
        tools.push(...listed.tools);
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      return tools.map(({ name, description, inputSchema, annotations }) => ({
        name,
        ...(description ? { description } : {}),
        inputSchema,
        ...(annotations ? { annotations } : {}),
      }));
    });
  }

  async callTool(
    name: string,
    args: unknown,
    options: { signal: AbortSignal; timeout: number; traceparent?: string | null },
  ): Promise<CallToolResult> {
    // MCP's convention for trace context: the W3C header travels in the request's `_meta`.
    const meta = options.traceparent ? { _meta: { traceparent: options.traceparent } } : {};
    return this.withClient(
      async (client) =>
        (await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown>, ...meta }, undefined, {
          signal: options.signal,
          timeout: options.timeout,
        })) as CallToolResult,
    );
  }

  /** Exchanges the code the authorization server sent back for tokens (stored by the provider). */
  async finishAuthorization(code: string): Promise<void> {
    if (!this.deps.oauth) throw new Error(`the MCP server "${this.endpoint.server}" has no OAuth client here`);
    const { auth } = await clientSdk();
    const result = await auth(this.deps.oauth, {
      serverUrl: this.endpoint.url,
      authorizationCode: code,
      fetchFn: this.deps.fetch,
    });
    if (result !== 'AUTHORIZED') throw new Error(`the MCP server "${this.endpoint.server}" did not authorize`);
    await this.close();
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await (await client?.catch(() => null))?.close().catch(() => {});
  }
}
