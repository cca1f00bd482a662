/**
 * An MCP client signing in to a real `wrangler dev` with OAuth 2.1 (IDN-7), as a remote client
 * would: the MCP SDK's own client meets the 401, discovers the metadata, registers itself, and sends
 * the person to the authorization page; the person (here plain fetch, keeping the page's cookie)
 * signs in with their key; the client exchanges the code with its PKCE verifier, connects to `/mcp`
 * with the access token, lists the agents and calls one, acting as that person. A token for a person
 * of another tenant (a key the bootstrap admin issued) does not see those threads, and the token
 * endpoint refuses a wrong verifier, a wrong redirect URI and a code used twice. The demo model
 * answers; nothing leaves the machine.
 */

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';

const ALICE = 'e2e-oauth-alice';
const ADMIN_KEY = 'e2e-oauth-bootstrap-admin';
/** Where the client says it listens; the test reads the redirect instead of following it. */
const REDIRECT = 'http://127.0.0.1:39999/callback';

let dev: WranglerDev;
/** A key of another tenant, issued by the bootstrap admin. */
let tenantBKey: string;

beforeAll(async () => {
  dev = await startWranglerDev({ vars: { API_KEYS: ALICE, ADMIN_KEY, DEMO_MODE: 'true' }, inspector: false });
  const issued = await fetch(new URL('/api/keys', dev.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'tenant-b', role: 'member' }),
  });
  expect(issued.status).toBe(201);
  tenantBKey = ((await issued.json()) as { key: string }).key;
});

afterAll(async () => {
  await dev?.stop();
});

/** What a desktop MCP client keeps between runs, in memory; the authorization URL it would open. */
class MemoryProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'e2e MCP client',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
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
}

/** The person at the authorization page: opens it, signs in with `key`, allows; the code comes back. */
async function signInOnPage(authorizationUrl: URL, key: string): Promise<string> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const answer = await fetch(new URL('/mcp/oauth/authorize', dev.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ handle, decision: 'approve', credential: key }).toString(),
  });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams.get('code') ?? '';
}

/** A client signed in as `key` through the SDK's own flow, connected to /mcp. */
async function connectWithOAuth(key: string): Promise<{ client: Client; provider: MemoryProvider; code: string }> {
  const provider = new MemoryProvider();
  const mcpUrl = new URL('/mcp', dev.url);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  // No token yet: the 401 sends the client through discovery and registration to the page.
  await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toThrow(/Unauthorized/i);
  expect(provider.information?.client_id).toBeTruthy();
  expect(provider.authorizationUrl?.pathname).toBe('/mcp/oauth/authorize');
  expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  const code = await signInOnPage(provider.authorizationUrl as URL, key);
  await first.finishAuth(code);
  expect(provider.saved?.access_token).toBeTruthy();
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider, code };
}

function structured(result: unknown): Record<string, unknown> {
  return ((result as CallToolResult).structuredContent ?? {}) as Record<string, unknown>;
}

/** Registers a client by hand, for the token endpoint's refusals. */
async function registerByHand(): Promise<string> {
  const response = await fetch(new URL('/mcp/oauth/register', dev.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'by hand', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** A code for a client registered by hand, with the verifier it was asked with. */
async function codeByHand(clientId: string): Promise<{ code: string; verifier: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  const url = new URL('/mcp/oauth/authorize', dev.url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: new URL('/mcp', dev.url).href,
  }).toString();
  return { code: await signInOnPage(url, ALICE), verifier };
}

function exchange(fields: Record<string, string>): Promise<Response> {
  return fetch(new URL('/mcp/oauth/token', dev.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', ...fields }).toString(),
  });
}

describe('an MCP client signing in with OAuth', () => {
  let alice: Client;
  let threadId: string;

  it("IDN-7: the SDK's client registers, the person signs in with a key, and the client calls an agent as them", async () => {
    ({ client: alice } = await connectWithOAuth(ALICE));
    const { tools } = await alice.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['assistant', 'list_threads', 'read_thread']));
    const result = await alice.callTool({ name: 'assistant', arguments: { message: 'hello from an OAuth client' } });
    expect((result as CallToolResult).isError).toBeFalsy();
    const answer = structured(result);
    expect(answer.status).toBe('idle');
    threadId = String(answer.thread_id);
    // The thread is the person's: their key sees it on the API.
    const viaKey = await fetch(new URL(`/api/threads/${threadId}`, dev.url), {
      headers: { authorization: `Bearer ${ALICE}` },
    });
    expect(viaKey.status).toBe(200);
  });

  it("IDN-7: a token for another tenant's person sees none of those threads, and cannot read one by its id", async () => {
    const { client: bob } = await connectWithOAuth(tenantBKey);
    const listed = structured(await bob.callTool({ name: 'list_threads', arguments: {} }));
    expect(JSON.stringify(listed)).not.toContain(threadId);
    const read = (await bob.callTool({ name: 'read_thread', arguments: { thread_id: threadId } })) as CallToolResult;
    expect(read.isError).toBe(true);
    // Alice's own listing still has it: nothing of hers changed.
    const mine = structured(await alice.callTool({ name: 'list_threads', arguments: {} }));
    expect(JSON.stringify(mine)).toContain(threadId);
    await bob.close();
    await alice.close();
  });

  it('IDN-7: the token endpoint refuses a wrong PKCE verifier, a wrong redirect URI and a code used twice', async () => {
    const clientId = await registerByHand();

    const first = await codeByHand(clientId);
    const wrongVerifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const badPkce = await exchange({
      code: first.code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: wrongVerifier,
    });
    expect(badPkce.status).toBe(400);
    expect(await badPkce.json()).toMatchObject({ error: 'invalid_grant' });

    const second = await codeByHand(clientId);
    const badRedirect = await exchange({
      code: second.code,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:39998/elsewhere',
      code_verifier: second.verifier,
    });
    expect(badRedirect.status).toBe(400);
    expect(await badRedirect.json()).toMatchObject({ error: 'invalid_grant' });

    const third = await codeByHand(clientId);
    const fields = { code: third.code, client_id: clientId, redirect_uri: REDIRECT, code_verifier: third.verifier };
    const once = await exchange(fields);
    expect(once.status).toBe(200);
    const { access_token: issued } = (await once.json()) as { access_token: string };
    const twice = await exchange(fields);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ error: 'invalid_grant' });
    // A code used twice is a stolen code: what it issued is revoked too (RFC 6749 §4.1.2).
    const initialize = await fetch(new URL('/mcp', dev.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${issued}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
      }),
    });
    expect(initialize.status).toBe(401);
    expect(initialize.headers.get('www-authenticate')).toContain('resource_metadata=');
    await initialize.body?.cancel();
  });
});
