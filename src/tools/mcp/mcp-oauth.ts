/**
 * The OAuth client of one MCP server in one thread (MCP authorization: OAuth 2.1 with PKCE and
 * dynamic client registration). The SDK drives the protocol; this provider keeps its state in the
 * thread's sealed storage, so a token never enters the message log, a frame or a model request, and
 * an authorization begun before an eviction completes after it. The authorization URL the SDK builds
 * is kept, not shown: the thread hands it to the browser the user starts the authorization in, with
 * a `state` bound to that browser (thread/mcp), so the `state` the SDK asks for here is a placeholder.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../spec/index.js';
import type { McpCredentials, McpHost } from './mcp-ports.js';

/** Raised when the server needs the user to authorize this thread: the call waits with `mcp_auth`. */
export class McpAuthorizationRequired extends Error {
  constructor(
    readonly server: string,
    readonly authorizationUrl: string,
  ) {
    super(`the MCP server "${server}" needs authorization`);
    this.name = 'McpAuthorizationRequired';
  }
}

function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What an authorization under way leaves in storage, cleared when it ends. */
const ENDED = {
  codeVerifier: undefined,
  authorizationUrl: undefined,
  start: undefined,
  state: undefined,
  binding: undefined,
} satisfies Partial<McpCredentials>;

export class ThreadOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK asks to send the user to the authorization server. */
  authorizationUrl: string | null = null;

  constructor(
    private readonly host: McpHost,
    private readonly server: string,
    private readonly config: McpServerConfig,
    private readonly callbackUrl: string,
  ) {}

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.config.oauth?.clientName ?? 'Standard Agents thread',
      redirect_uris: [this.callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.config.oauth?.scopes ? { scope: this.config.oauth.scopes.join(' ') } : {}),
    };
  }

  private async read(): Promise<McpCredentials> {
    return (await this.host.storage.credentials(this.server)) ?? {};
  }

  private async update(change: Partial<McpCredentials>): Promise<void> {
    await this.host.storage.saveCredentials(this.server, { ...(await this.read()), ...change });
  }

  /** Replaced before any browser sees the URL; random, so it never matches a callback by chance. */
  async state(): Promise<string> {
    return `unbound.${randomPart()}`;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return (await this.read()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // A completed exchange ends the authorization under way: nothing of it can be used twice.
    await this.update({ tokens, ...ENDED });
  }

  /** A new authorization replaces any under way: its links, states and browser bindings are void. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl.href;
    await this.update({
      authorizationUrl: authorizationUrl.href,
      start: undefined,
      state: undefined,
      binding: undefined,
    });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update({ codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.read()).codeVerifier;
    if (!verifier) throw new Error(`no authorization of the MCP server "${this.server}" is under way`);
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier'): Promise<void> {
    if (scope === 'all') await this.host.storage.saveCredentials(this.server, {});
    else if (scope === 'client') await this.update({ client: undefined });
    else if (scope === 'tokens') await this.update({ tokens: undefined });
    else await this.update({ codeVerifier: undefined });
  }
}
