/**
 * The local MCP servers of harness/mcp-servers.mjs, driven by the official SDK's own client, so the
 * runtime's MCP tests stand on servers known to speak the protocol: every tool kind on both
 * transports, cancellation reaching the handler, 404 for a dropped session, the OAuth 2.1 flow with
 * dynamic registration, PKCE, refresh and rotation, and the demo server with its CLI. Waits poll for
 * a recorded state (vi.waitFor), never for a length of time.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { crc32, inflateSync } from 'node:zlib';
import { auth, type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CATALOG_TOOLS,
  convertUnits,
  type DemoMcpServer,
  EXPLODE_MESSAGE,
  type McpTestServer,
  type OAuthMcpServer,
  PIXEL_PNG_BASE64,
  startDemoMcpServer,
  startMcpServer,
  startOAuthMcpServer,
  worldClock,
} from '../../../harness/mcp-servers.mjs';

const WAIT = { timeout: 10_000, interval: 5 };

/** Clients opened by a test, closed after it. */
const openClients: Client[] = [];

afterEach(async () => {
  await Promise.all(openClients.splice(0).map((client) => client.close()));
});

function newClient(): Client {
  const client = new Client({ name: 'mcp-harness-test', version: '1.0.0' });
  openClients.push(client);
  return client;
}

async function connectStreamable(url: string, init?: RequestInit) {
  const transport = new StreamableHTTPClientTransport(new URL(url), init ? { requestInit: init } : undefined);
  const client = newClient();
  await client.connect(transport);
  return { client, transport };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function texts(result: CallToolResult): string[] {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

/** Checks the PNG the way a decoder would: signature, chunk CRCs, header, inflatable pixel data. */
function decodePng(base64: string) {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const typeAndData = bytes.subarray(at + 4, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData));
    chunks.push({ type: typeAndData.subarray(0, 4).toString('ascii'), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const header = chunks[0]?.data ?? Buffer.alloc(0);
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const pixels = inflateSync(chunks[1]?.data ?? Buffer.alloc(0));
  return { width, height, pixels };
}

describe('startMcpServer', () => {
  let server: McpTestServer;

  beforeAll(async () => {
    server = await startMcpServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('lists the 7 test tools and the 200 catalog tools over Streamable HTTP, in a session of its own', async () => {
    const { client, transport } = await connectStreamable(server.url);
    const { tools } = await client.listTools();

    expect(tools).toHaveLength(207);
    expect(tools.slice(0, 7).map((tool) => tool.name)).toEqual([
      'echo',
      'pixel',
      'fetch_doc',
      'fail',
      'explode',
      'slow',
      'whoami',
    ]);
    expect(tools.slice(7).map((tool) => [tool.name, tool.description])).toEqual(
      CATALOG_TOOLS.map((tool) => [tool.name, tool.description]),
    );
    expect(tools.find((tool) => tool.name === 'echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.sessions()).toBeGreaterThanOrEqual(1);
  });

  it('finds exactly one catalog tool for each keyword, searching names, descriptions and schemas', async () => {
    const { client } = await connectStreamable(server.url);
    const { tools } = await client.listTools();
    const haystacks = tools.map((tool) => `${tool.name} ${tool.description} ${JSON.stringify(tool.inputSchema)}`);

    expect(new Set(CATALOG_TOOLS.map((tool) => tool.keyword)).size).toBe(200);
    for (const tool of CATALOG_TOOLS) {
      const hits = tools.filter((_, index) => haystacks[index]?.toLowerCase().includes(tool.keyword));
      expect(hits.map((hit) => hit.name)).toEqual([tool.name]);
    }
    expect(CATALOG_TOOLS[42]).toMatchObject({ name: 'catalog_042', keyword: 'noodle' });
  });

  it('answers every kind of tool result', async () => {
    const { client } = await connectStreamable(server.url);

    expect(await call(client, 'echo', { text: 'hello there' })).toEqual({
      content: [{ type: 'text', text: 'echo: hello there' }],
    });

    const pixel = await call(client, 'pixel');
    expect(pixel.content).toEqual([
      { type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' },
      { type: 'text', text: 'a 2x2 red square' },
    ]);
    const png = decodePng(PIXEL_PNG_BASE64);
    expect([png.width, png.height]).toEqual([2, 2]);
    // Two scanlines: a filter byte, then two RGB pixels of pure red.
    expect([...png.pixels]).toEqual([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]);

    expect((await call(client, 'fetch_doc', { name: 'guide' })).content).toEqual([
      {
        type: 'resource',
        resource: {
          uri: 'docs://guide',
          mimeType: 'text/markdown',
          text: '# guide\n\nThe guide document of the local MCP test server.\n',
        },
      },
    ]);
    expect((await call(client, 'fetch_doc', { name: 'guide', as: 'link' })).content).toEqual([
      {
        type: 'resource_link',
        uri: 'docs://guide',
        name: 'guide',
        mimeType: 'text/markdown',
        description: 'The guide document.',
      },
    ]);
    // The link resolves through the server's resource template.
    expect(await client.readResource({ uri: 'docs://guide' })).toEqual({
      contents: [
        {
          uri: 'docs://guide',
          mimeType: 'text/markdown',
          text: '# guide\n\nThe guide document of the local MCP test server.\n',
        },
      ],
    });

    expect(await call(client, 'fail', { reason: 'disk full' })).toEqual({
      content: [{ type: 'text', text: 'disk full' }],
      isError: true,
    });
    expect(texts(await call(client, 'fail'))).toEqual(['the tool failed on purpose']);

    // The SDK's McpServer catches a handler's exception and answers an isError result carrying its
    // message, not a JSON-RPC error; so do unknown tools and arguments that fail the input schema.
    expect(await call(client, 'explode')).toEqual({
      content: [{ type: 'text', text: EXPLODE_MESSAGE }],
      isError: true,
    });
    const unknown = await call(client, 'no_such_tool');
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)[0]).toContain('Tool no_such_tool not found');
    const invalid = await call(client, 'echo', { text: 42 });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)[0]).toContain('Input validation error');

    expect(texts(await call(client, 'slow', { ms: 1 }))).toEqual(['slept 1']);
    expect(texts(await call(client, 'catalog_001', { id: 7, verbose: true }))).toEqual([
      'catalog_001 ok: {"id":7,"verbose":true}',
    ]);
    expect(texts(await call(client, 'catalog_002', { query: 'tides' }))).toEqual(['catalog_002 ok: {"query":"tides"}']);

    const explode = server.calls.find((entry) => entry.tool === 'explode');
    expect(explode?.status).toBe('failed');
  });

  it('tells whoami the session and whether an Authorization header arrived, never its value', async () => {
    const plain = await connectStreamable(server.url);
    expect(JSON.parse(texts(await call(plain.client, 'whoami'))[0] ?? '')).toEqual({
      sessionId: plain.transport.sessionId,
      authorization: false,
      clientId: null,
    });

    const withKey = await connectStreamable(server.url, { headers: { Authorization: 'Bearer static-key-0123456789' } });
    const [answer = ''] = texts(await call(withKey.client, 'whoami'));
    expect(JSON.parse(answer)).toEqual({ sessionId: withKey.transport.sessionId, authorization: true, clientId: null });
    expect(answer).not.toContain('static-key');
    const recorded = server.requests.filter((request) => request.sessionId === withKey.transport.sessionId);
    expect(recorded.every((request) => request.headers.authorization === 'Bearer static-key-0123456789')).toBe(true);
  });

  it('records each request: method, path, lower-case headers, JSON-RPC methods, tool and session', async () => {
    const { client, transport } = await connectStreamable(server.url);
    await call(client, 'echo', { text: 'recorded' });
    const sessionId = transport.sessionId;

    const initialize = server.requests.findLast((request) => request.mcpMethods.includes('initialize'));
    expect(initialize).toMatchObject({ method: 'POST', path: '/mcp', sessionId: undefined, status: 200 });
    const mine = server.requests.filter((request) => request.sessionId === sessionId);
    expect(mine.filter((request) => request.method === 'POST').map((request) => request.mcpMethods)).toEqual([
      ['notifications/initialized'],
      ['tools/call'],
    ]);
    const toolCall = mine.find((request) => request.tool === 'echo');
    expect(toolCall).toMatchObject({ method: 'POST', path: '/mcp', status: 200 });
    expect(toolCall?.headers['mcp-protocol-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(toolCall?.headers['content-type']).toBe('application/json');
    expect(Object.keys(toolCall?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('stops a slow call when the client cancels it, and records the cancellation', async () => {
    const { client, transport } = await connectStreamable(server.url);
    const before = server.cancelled();
    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow', arguments: { ms: 600_000 } }, undefined, {
      signal: controller.signal,
    });
    const outcome = pending.then(
      () => 'resolved',
      () => 'rejected',
    );
    const running = () =>
      server.calls.find(
        (entry) => entry.tool === 'slow' && entry.sessionId === transport.sessionId && entry.status === 'running',
      );
    await vi.waitFor(() => expect(running()).toBeDefined(), WAIT);
    const slow = running();

    controller.abort('the user pressed stop');

    expect(await outcome).toBe('rejected');
    await vi.waitFor(() => expect(slow?.status).toBe('cancelled'), WAIT);
    expect(server.cancelled()).toBe(before + 1);
    const cancelNote = server.requests.find(
      (request) => request.sessionId === transport.sessionId && request.mcpMethods.includes('notifications/cancelled'),
    );
    expect(cancelNote?.status).toBe(202);
  });

  it('answers 404 to a dropped session, and the client can start a new one', async () => {
    const first = await connectStreamable(server.url);
    await call(first.client, 'echo', { text: 'before' });
    const oldSession = first.transport.sessionId;

    server.dropSessions();
    expect(server.sessions()).toBe(0);

    const failure = await first.client.callTool({ name: 'echo', arguments: { text: 'after' } }).catch((error) => error);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(404);
    const rejected = server.requests.findLast((request) => request.tool === 'echo' && request.sessionId === oldSession);
    expect(rejected?.status).toBe(404);

    const second = await connectStreamable(server.url);
    expect(second.transport.sessionId).not.toBe(oldSession);
    expect(texts(await call(second.client, 'echo', { text: 'again' }))).toEqual(['echo: again']);
    expect(server.sessions()).toBe(1);
  });

  it('answers 404 to a made-up session id and 400 to a request with none that is not initialize', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

    const madeUp = await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'nope' }, body });
    expect(madeUp.status).toBe(404);
    expect(await madeUp.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Session not found' },
      id: null,
    });

    const none = await fetch(server.url, { method: 'POST', headers, body });
    expect(none.status).toBe(400);
    await none.body?.cancel();
  });

  it('serves the same tools over the HTTP+SSE transport', async () => {
    const transport = new SSEClientTransport(new URL(server.sseUrl));
    const client = newClient();
    await client.connect(transport);

    expect((await client.listTools()).tools).toHaveLength(207);
    expect(texts(await call(client, 'echo', { text: 'over sse' }))).toEqual(['echo: over sse']);
    expect(await call(client, 'explode')).toMatchObject({ isError: true });
    const who = JSON.parse(texts(await call(client, 'whoami'))[0] ?? '');
    // The session is the one the endpoint event named in the query of every POST.
    expect(who).toEqual({ sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/), authorization: false, clientId: null });

    const stream = server.requests.findLast((request) => request.path === '/sse');
    expect(stream).toMatchObject({ method: 'GET', status: 200 });
    const posts = server.requests.filter(
      (request) => request.path === '/messages' && request.sessionId === who.sessionId,
    );
    expect(posts.map((request) => [request.mcpMethods[0], request.tool, request.status])).toEqual([
      ['initialize', undefined, 202],
      ['notifications/initialized', undefined, 202],
      ['tools/list', undefined, 202],
      ['tools/call', 'echo', 202],
      ['tools/call', 'explode', 202],
      ['tools/call', 'whoami', 202],
    ]);
  });
});

describe('startMcpServer options', () => {
  it('leaves out the catalog with tools: basic', async () => {
    const server = await startMcpServer({ tools: 'basic' });
    try {
      const { client } = await connectStreamable(server.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'echo',
        'pixel',
        'fetch_doc',
        'fail',
        'explode',
        'slow',
        'whoami',
      ]);
    } finally {
      await server.close();
    }
  });

  it('answers POSTs with plain JSON when jsonResponse is set', async () => {
    const server = await startMcpServer({ tools: 'basic', jsonResponse: true });
    try {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18' } });

      const { client } = await connectStreamable(server.url);
      expect(texts(await call(client, 'echo', { text: 'json' }))).toEqual(['echo: json']);
    } finally {
      await server.close();
    }
  });

  it('waits delayMs before each call, and a cancellation cuts the wait short', async () => {
    const server = await startMcpServer({ tools: 'basic', delayMs: 600_000 });
    try {
      const { client } = await connectStreamable(server.url);
      const controller = new AbortController();
      const outcome = client
        .callTool({ name: 'echo', arguments: { text: 'late' } }, undefined, { signal: controller.signal })
        .then(
          () => 'resolved',
          () => 'rejected',
        );
      await vi.waitFor(() => expect(server.calls).toMatchObject([{ tool: 'echo', status: 'running' }]), WAIT);

      controller.abort();

      expect(await outcome).toBe('rejected');
      await vi.waitFor(() => expect(server.cancelled()).toBe(1), WAIT);
    } finally {
      await server.close();
    }
  });
});

/** An in-memory OAuthClientProvider, as a test or a headless client keeps one. */
class MemoryOAuthProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(private readonly metadata: Partial<OAuthClientMetadata> = {}) {}

  get redirectUrl() {
    return 'http://127.0.0.1:9/oauth/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mcp-harness-test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.metadata,
    };
  }
  state() {
    return 'state-1234';
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
  }
}

/** What the "user" approving does: follow the authorization URL and read the code off the redirect. */
async function approve(authorizationUrl: URL | undefined) {
  if (!authorizationUrl) throw new Error('no authorization URL was captured');
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  return { location, code: location.searchParams.get('code') ?? '' };
}

async function postForm(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startOAuthMcpServer', () => {
  let server: OAuthMcpServer;

  beforeAll(async () => {
    server = await startOAuthMcpServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('challenges a request without a token and publishes both metadata documents', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource"`,
    );
    await response.body?.cancel();

    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const document = await (await fetch(`${server.origin}${path}`)).json();
      expect(OAuthProtectedResourceMetadataSchema.parse(document)).toMatchObject({
        resource: `${server.origin}/mcp`,
        authorization_servers: [server.origin],
      });
    }
    const metadata = OAuthMetadataSchema.parse(
      await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json(),
    );
    expect(metadata).toEqual({
      issuer: server.origin,
      authorization_endpoint: `${server.origin}/authorize`,
      token_endpoint: `${server.origin}/token`,
      registration_endpoint: `${server.origin}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    });
  });

  it('runs the SDK client through registration, authorization with PKCE, and the token exchange', async () => {
    const provider = new MemoryOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const refused = await newClient()
      .connect(transport)
      .catch((error) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);

    const registration = server.registrations.at(-1);
    expect(registration).toMatchObject({
      redirect_uris: [provider.redirectUrl],
      token_endpoint_auth_method: 'none',
    });
    expect(registration?.client_secret).toBeUndefined();
    expect(provider.information?.client_id).toBe(registration?.client_id);

    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.origin).toBe(server.origin);
    expect(authorizationUrl?.pathname).toBe('/authorize');
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('resource')).toBe(server.url);
    const { location, code } = await approve(authorizationUrl);
    expect(`${location.origin}${location.pathname}`).toBe(provider.redirectUrl);
    expect(location.searchParams.get('state')).toBe('state-1234');
    expect(code).toMatch(/^mcp_code_/);

    await transport.finishAuth(code);

    expect(server.tokenRequests.at(-1)).toEqual({
      grantType: 'authorization_code',
      clientId: registration?.client_id,
      pkceVerified: true,
      resource: server.url,
      error: undefined,
    });
    const tokens = provider.saved;
    expect(tokens?.token_type).toBe('Bearer');
    expect(server.tokensIssued).toContain(tokens?.access_token);
    expect(server.tokensIssued).toContain(tokens?.refresh_token);
    expect(server.secrets()).toEqual(expect.arrayContaining([tokens?.access_token, tokens?.refresh_token, code]));

    const { client } = await connectWith(provider);
    const [answer = ''] = texts(await call(client, 'whoami'));
    expect(JSON.parse(answer)).toMatchObject({ authorization: true, clientId: registration?.client_id });
    expect(answer).not.toContain(String(tokens?.access_token));
    expect(texts(await call(client, 'echo', { text: 'authorized' }))).toEqual(['echo: authorized']);
  });

  it('refreshes an expired access token, rotating the refresh token', async () => {
    const provider = await authorizedProvider();
    const { client } = await connectWith(provider);
    const first = provider.saved;

    server.expireTokens();
    const expired = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${first?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The access token expired.", resource_metadata="${server.resourceMetadataUrl}"`,
    );
    await expired.body?.cancel();

    expect(texts(await call(client, 'echo', { text: 'after expiry' }))).toEqual(['echo: after expiry']);
    expect(server.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', error: undefined });
    const second = provider.saved;
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    expect(server.tokensIssued).toEqual(expect.arrayContaining([second?.access_token, second?.refresh_token]));

    const reused = await postForm(`${server.origin}/token`, {
      grant_type: 'refresh_token',
      refresh_token: String(first?.refresh_token),
      client_id: String(provider.information?.client_id),
    });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('sends the client back to the authorization endpoint once its tokens are revoked', async () => {
    const provider = await authorizedProvider();
    const { client } = await connectWith(provider);
    const authorizeCount = server.authorizeRequests.length;
    const firstAuthorizationUrl = provider.authorizationUrl;

    server.revokeTokens();

    const failure = await client.callTool({ name: 'echo', arguments: { text: 'x' } }).catch((error) => error);
    expect(failure).toBeInstanceOf(UnauthorizedError);
    expect(server.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', error: 'invalid_grant' });
    expect(provider.authorizationUrl).not.toBe(firstAuthorizationUrl);
    expect(provider.authorizationUrl?.pathname).toBe('/authorize');
    // The client was handed a URL for the user; nothing visited it yet.
    expect(server.authorizeRequests.length).toBe(authorizeCount);
  });

  it('refuses bad authorization and token requests as RFC 6749 and RFC 7636 say', async () => {
    const provider = new MemoryOAuthProvider();
    expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
    const clientId = String(provider.information?.client_id);
    const authorizationUrl = provider.authorizationUrl as URL;

    // An unregistered redirect URI is never redirected to.
    const stranger = new URL(authorizationUrl);
    stranger.searchParams.set('redirect_uri', 'http://127.0.0.1:9/elsewhere');
    const refused = await fetch(stranger, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    await refused.body?.cancel();

    // Without PKCE the error goes back to the client, with its state.
    const noPkce = new URL(authorizationUrl);
    noPkce.searchParams.delete('code_challenge');
    const { location } = await approve(noPkce);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('state-1234');
    expect(location.searchParams.get('code')).toBeNull();
    expect(server.authorizeRequests.at(-1)?.error).toBe('invalid_request');

    // A wrong verifier is refused; the code stays good for the right one, once.
    const { code } = await approve(authorizationUrl);
    const exchange = {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: provider.redirectUrl,
      resource: server.url,
    };
    const wrong = await postForm(`${server.origin}/token`, { ...exchange, code_verifier: 'x'.repeat(43) });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(server.tokenRequests.at(-1)?.pkceVerified).toBe(false);

    const right = await postForm(`${server.origin}/token`, { ...exchange, code_verifier: provider.verifier });
    expect(right.status).toBe(200);
    expect(server.tokenRequests.at(-1)?.pkceVerified).toBe(true);

    // A second use of the code fails and revokes what the first use got.
    const again = await postForm(`${server.origin}/token`, { ...exchange, code_verifier: provider.verifier });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const revoked = await fetch(server.url, { headers: { authorization: `Bearer ${right.body.access_token}` } });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await revoked.body?.cancel();

    const unsupported = await postForm(`${server.origin}/token`, { grant_type: 'password', client_id: clientId });
    expect(unsupported).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  it('gives a confidential client a secret and requires it at the token endpoint', async () => {
    const provider = new MemoryOAuthProvider({ token_endpoint_auth_method: 'client_secret_post' });
    expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
    const registration = server.registrations.at(-1);
    expect(registration?.client_secret).toMatch(/^mcp_secret_/);
    expect(server.secrets()).toContain(registration?.client_secret);

    const { code } = await approve(provider.authorizationUrl);
    const withoutSecret = await postForm(`${server.origin}/token`, {
      grant_type: 'authorization_code',
      code,
      client_id: String(registration?.client_id),
      redirect_uri: provider.redirectUrl,
      code_verifier: provider.verifier,
    });
    expect(withoutSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    expect(await auth(provider, { serverUrl: server.url, authorizationCode: code })).toBe('AUTHORIZED');
    expect(server.tokensIssued).toContain(provider.saved?.access_token);
  });

  /** A provider holding tokens, obtained with the SDK's auth() helper. */
  async function authorizedProvider() {
    const provider = new MemoryOAuthProvider();
    expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
    const { code } = await approve(provider.authorizationUrl);
    expect(await auth(provider, { serverUrl: server.url, authorizationCode: code })).toBe('AUTHORIZED');
    return provider;
  }

  async function connectWith(provider: MemoryOAuthProvider) {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const client = newClient();
    await client.connect(transport);
    return { client, transport };
  }
});

describe('startDemoMcpServer', () => {
  let demo: DemoMcpServer;

  beforeAll(async () => {
    demo = await startDemoMcpServer();
  });

  afterAll(async () => {
    await demo.close();
  });

  it('converts units and tells the time in a city', async () => {
    const { client } = await connectStreamable(demo.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['convert_units', 'world_clock']);

    expect(texts(await call(client, 'convert_units', { value: 5, from: 'km', to: 'mi' }))).toEqual([
      '5 km = 3.106855961 mi',
    ]);
    expect(texts(await call(client, 'convert_units', { value: 212, from: 'fahrenheit', to: 'celsius' }))).toEqual([
      '212 °F = 100 °C',
    ]);
    const mismatch = await call(client, 'convert_units', { value: 1, from: 'kg', to: 'm' });
    expect(mismatch).toEqual({
      content: [{ type: 'text', text: 'Cannot convert mass (kg) to length (m).' }],
      isError: true,
    });

    const [tokyo = ''] = texts(await call(client, 'world_clock', { city: 'tokyo' }));
    expect(tokyo).toMatch(/^Tokyo \(Asia\/Tokyo\): .*\d{2}:\d{2} GMT\+9$/);
    const unknown = await call(client, 'world_clock', { city: 'Atlantis' });
    expect(unknown.isError).toBe(true);
    expect(texts(unknown)[0]).toContain('Known cities: Auckland, Berlin');
  });

  it('computes conversions and clock readings exactly', () => {
    expect(convertUnits(1, 'mi', 'km')).toEqual({ ok: true, value: 1.609344, text: '1 mi = 1.609344 km' });
    expect(convertUnits(1, 'pounds', 'oz')).toMatchObject({ ok: true, value: 16 });
    expect(convertUnits(0, 'K', 'C')).toMatchObject({ ok: true, value: -273.15 });
    expect(convertUnits(1, 'furlong', 'm')).toMatchObject({ ok: false });

    const winter = new Date('2025-01-15T12:00:00Z');
    const summer = new Date('2025-07-15T12:00:00Z');
    expect(worldClock('New York', winter)).toMatchObject({ ok: true, timeZone: 'America/New_York' });
    expect(worldClock('new-york', winter).ok && worldClock('new-york', winter)).toMatchObject({
      text: expect.stringMatching(/07:00 GMT-5$/),
    });
    expect(worldClock('New York', summer)).toMatchObject({ text: expect.stringMatching(/08:00 GMT-4$/) });
    expect(worldClock('sao paulo', winter)).toMatchObject({
      city: 'São Paulo',
      text: expect.stringMatching(/09:00 GMT-3$/),
    });
  });

  it('starts from the command line and prints its URL', async () => {
    const script = fileURLToPath(new URL('../../../harness/mcp-servers.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, 'demo'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout });
      const [url = ''] = await new Promise<string[]>((resolve) => lines.once('line', (line) => resolve([line])));
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const { client } = await connectStreamable(url);
      expect(texts(await call(client, 'convert_units', { value: 1, from: 'kg', to: 'g' }))).toEqual(['1 kg = 1000 g']);
      await client.close();
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
