/**
 * What a thread keeps of its MCP servers, in its SQLite storage: each server's listing and session
 * (plain: tool names and schemas, a session id), and its OAuth credentials sealed with the thread's
 * secret box (VAR-3), so tokens exist in plain text only in memory while a request uses them.
 */
import type { McpCredentials, McpServerRecord, McpStorage } from '../../tools/mcp/index.js';
import { SecretBox } from '../secrets/index.js';
import { McpServerRows } from '../storage/index.js';

export class SqliteMcpStorage implements McpStorage {
  private box: Promise<SecretBox> | null = null;
  private readonly rows: McpServerRows;

  constructor(
    storage: DurableObjectStorage,
    private readonly threadId: string,
    private readonly secretsKey: string | undefined,
    /** Told of every credential value read or written, so the thread's scrubber hides it. */
    private readonly protect: (values: string[]) => void,
  ) {
    this.rows = new McpServerRows(storage);
  }

  private protectCredentials(credentials: McpCredentials): McpCredentials {
    const client = credentials.client as { client_secret?: string } | undefined;
    const values = [credentials.tokens?.access_token, credentials.tokens?.refresh_token, client?.client_secret];
    this.protect(values.filter((value): value is string => typeof value === 'string'));
    return credentials;
  }

  private secretBox(): Promise<SecretBox> {
    if (!this.secretsKey) {
      return Promise.reject(new Error('OAuth for MCP servers needs the SECRETS_KEY Worker secret to seal tokens'));
    }
    this.box ??= SecretBox.forThread(this.secretsKey, this.threadId);
    return this.box;
  }

  record(server: string): McpServerRecord | null {
    const text = this.rows.read(server, 'record');
    return text ? (JSON.parse(text) as McpServerRecord) : null;
  }

  saveRecord(server: string, record: McpServerRecord): void {
    this.rows.write(server, 'record', JSON.stringify(record));
  }

  async credentials(server: string): Promise<McpCredentials | null> {
    const sealed = this.rows.read(server, 'credentials');
    if (!sealed) return null;
    return this.protectCredentials(JSON.parse(await (await this.secretBox()).open(sealed)) as McpCredentials);
  }

  async saveCredentials(server: string, credentials: McpCredentials): Promise<void> {
    this.protectCredentials(credentials);
    const sealed = await (await this.secretBox()).seal(JSON.stringify(credentials));
    this.rows.write(server, 'credentials', sealed);
  }

  /** The first server whose credentials pass `test`, with them (an authorization's link or state). */
  async serverWhere(
    test: (credentials: McpCredentials) => boolean,
  ): Promise<{ server: string; credentials: McpCredentials } | null> {
    for (const server of this.rows.serversWithCredentials()) {
      const credentials = await this.credentials(server);
      if (credentials && test(credentials)) return { server, credentials };
    }
    return null;
  }
}
