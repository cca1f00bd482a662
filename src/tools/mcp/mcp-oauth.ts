/**
 * The OAuth client of one MCP server in one thread (MCP authorization: OAuth 2.1 with PKCE and
 * dynamic client registration). The SDK drives the protocol; this provider keeps its state in the
 * thread's sealed storage, so a token never enters the message log, a frame or a model request, and
 * an authorization begun before an eviction completes after it. `state` names the thread and carries
 * a random part, so the callback route finds the thread and a forged callback matches nothing.
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

/** The thread a callback's `state` belongs to: its text up to the first dot. */
export function threadOfState(state: string): string {
  return state.split('.')[0] ?? '';
}

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

  async state(): Promise<string> {
    const state = `${this.host.threadId}.${randomPart()}`;
    await this.update({ state });
    return state;
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
    // A completed exchange ends the authorization under way: its state cannot be used twice.
    await this.update({ tokens, state: undefined, codeVerifier: undefined });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl.href;
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
