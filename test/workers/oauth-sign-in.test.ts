/**
 * OAuth 2.1 sign-in of MCP clients (IDN-7), through the Worker's fetch handler in workerd: the
 * discovery documents, the 401 that points at them, the authorization page as a browser meets it
 * (escaped client names, its policy, the form bound to the browser, a key that does not sign in,
 * Deny), what an issued token may reach, and a Worker without `OAUTH_KV`, where `/mcp` is as before.
 * The whole flow with the MCP SDK's own client runs against `wrangler dev` (test/e2e/mcp-oauth.test.ts).
 */
import { createExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/engine/registry/index.js';
import { createApp } from '../../src/http/index.js';
import type { RuntimeEnv } from '../../src/thread/bindings/index.js';
import { ALICE, api } from '../support/api.js';
import {
  FORGED_CONSENT_FORMS,
  HOSTILE_CLIENT_NAMES,
  HOSTILE_REDIRECT_URIS,
  KEY_ENDINGS_AFTER_GRANT,
  OVERSIZED_CONSENT_FORM,
} from '../support/hostile-corpus.js';

const ORIGIN = 'https://runtime.test';
const worker = (exports as unknown as { default: Fetcher }).default;
const escaped = (text: string) => text.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
const REDIRECT = 'http://127.0.0.1:8976/callback';

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

async function register(name = 'Test client'): Promise<string> {
  const response = await api('/mcp/oauth/register', {
    method: 'POST',
    key: null,
    json: { client_name: name, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

interface Page {
  status: number;
  html: string;
  headers: Headers;
  handle: string;
  /** `name=value` of the cookie binding the handle to this browser. */
  cookie: string;
}

function readPage(response: Response, html: string): Page {
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: response.status, html, headers: response.headers, handle, cookie };
}

async function openPage(clientId: string, challenge: string): Promise<Page> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-1',
    resource: `${ORIGIN}/mcp`,
  });
  const response = await api(`/mcp/oauth/authorize?${query}`, { key: null });
  return readPage(response, await response.text());
}

function postForm(fields: Record<string, string>, cookie: string | null): Promise<Response> {
  return api('/mcp/oauth/authorize', {
    method: 'POST',
    key: null,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

async function exchange(clientId: string, code: string, verifier: string): Promise<Response> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
  return api('/mcp/oauth/token', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

/** A client registered, a person signed in with `key`: the access token. */
async function accessToken(key = ALICE): Promise<string> {
  const clientId = await register();
  const { verifier, challenge } = await pkce();
  const page = await openPage(clientId, challenge);
  const answer = await postForm({ handle: page.handle, decision: 'approve', credential: key }, page.cookie);
  expect(answer.status).toBe(302);
  const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await exchange(clientId, code, verifier);
  expect(tokens.status).toBe(200);
  return ((await tokens.json()) as { access_token: string }).access_token;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

function mcpInitialize(key: string | null): Promise<Response> {
  return api('/mcp', {
    method: 'POST',
    key,
    headers: { accept: 'application/json, text/event-stream' },
    json: INITIALIZE,
  });
}

describe('OAuth discovery', () => {
  it('IDN-7: /mcp has RFC 9728 metadata naming this origin as its authorization server', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await api(path, { key: null });
      expect(response.status, path).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: `${ORIGIN}/mcp`,
        authorization_servers: [ORIGIN],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('IDN-7: RFC 8414 metadata: the endpoints under /mcp/oauth, registration, the code grant with S256 only', async () => {
    const response = await api('/.well-known/oauth-authorization-server', { key: null });
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/mcp/oauth/authorize`,
      token_endpoint: `${ORIGIN}/mcp/oauth/token`,
      registration_endpoint: `${ORIGIN}/mcp/oauth/register`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(metadata.grant_types_supported).toContain('authorization_code');
    expect(metadata.response_types_supported).not.toContain('token');
  });

  it("IDN-7: /mcp without credentials answers 401 whose challenge names the resource's metadata", async () => {
    const response = await mcpInitialize(null);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });
});

describe('the authorization page', () => {
  it('IDN-7: shows the client and where access goes, under a policy with no script and the form bound to this browser', async () => {
    const page = await openPage(await register('Notes app'), (await pkce()).challenge);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<strong>Notes app</strong>');
    expect(page.html).toContain('<strong>127.0.0.1</strong>');
    expect(page.html).toContain('an app on this computer');
    expect(page.handle).not.toBe('');
    expect(page.cookie).toMatch(/^__Host-oauth-consent-/);
    expect(page.headers.get('set-cookie')).toMatch(/Secure/i);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self' http://127.0.0.1:8976");
    expect(policy).not.toContain('script-src');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toContain('no-store');
  });

  it('IDN-7: hostile client names are shown as text, never as markup', async () => {
    for (const name of HOSTILE_CLIENT_NAMES) {
      const page = await openPage(await register(name), (await pkce()).challenge);
      expect(page.status, name).toBe(200);
      expect(page.html, name).not.toContain(name);
      expect(page.html, name).toContain(`<strong>${escaped(name)}</strong>`);
      expect(page.html, name).not.toMatch(/<(script|img)\b/i);
      // The page's own form and two fields are the only ones, posting here.
      expect(page.html.match(/<form /g)).toEqual(['<form ']);
      expect(page.html.match(/<input /g)).toHaveLength(2);
      expect(page.html).toContain('<form method="post" action="/mcp/oauth/authorize">');
    }
  });

  it('IDN-7: a forged or foreign form is refused, issues no code, and the real page still signs in', async () => {
    const clientId = await register();
    const { challenge } = await pkce();
    const mine = await openPage(clientId, challenge);
    const other = await openPage(clientId, challenge);
    for (const forged of FORGED_CONSENT_FORMS) {
      const cookie = { none: null, 'other browser': other.cookie, own: mine.cookie }[forged.cookie];
      const handle = { own: mine.handle, 'other browser': other.handle, 'made up': 'A'.repeat(43) }[forged.handle];
      const answer = await postForm({ handle, decision: 'approve', credential: ALICE }, cookie);
      expect(answer.status, forged.label).toBe(400);
      expect(answer.headers.get('location'), forged.label).toBeNull();
    }
    const real = await postForm({ handle: mine.handle, decision: 'approve', credential: ALICE }, mine.cookie);
    expect(real.status).toBe(302);
    expect(new URL(real.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
    // Spent: the same form again is refused.
    const again = await postForm({ handle: mine.handle, decision: 'approve', credential: ALICE }, mine.cookie);
    expect(again.status).toBe(400);
  });

  it('IDN-7: a form far larger than the page sends, streamed without a length, is refused unread', async () => {
    const page = await openPage(await register(), (await pkce()).challenge);
    const start = `handle=${page.handle}&decision=approve&credential=${ALICE}&padding=`;
    const { chunkBytes, chunks } = OVERSIZED_CONSENT_FORM;
    const chunk = new TextEncoder().encode('A'.repeat(chunkBytes));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode(start));
        if (sent >= chunks) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    // Straight into the app, so the stream is the one the handler reads, with no pipe between.
    const answer = await createApp(new Registry({})).fetch(
      new Request(`${ORIGIN}/mcp/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
        body,
      }),
      env as unknown as RuntimeEnv,
      createExecutionContext(),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(sent).toBeLessThan(chunks);
    // The page's own form still signs in: the refused body spent nothing.
    const real = await postForm({ handle: page.handle, decision: 'approve', credential: ALICE }, page.cookie);
    expect(real.status).toBe(302);
  });

  it('IDN-7: a key that does not sign in gets the page again, without the key, and no code', async () => {
    const clientId = await register();
    const page = await openPage(clientId, (await pkce()).challenge);
    const wrong = 'not-a-key-4f1c9a77e0d2';
    const answer = await postForm({ handle: page.handle, decision: 'approve', credential: wrong }, page.cookie);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('location')).toBeNull();
    const again = readPage(answer, await answer.text());
    expect(again.html).not.toContain(wrong);
    expect(again.html).toContain('did not sign you in');
    expect(again.handle).not.toBe(page.handle);
    // The fresh page signs in with a real key.
    const real = await postForm({ handle: again.handle, decision: 'approve', credential: ALICE }, again.cookie);
    expect(real.status).toBe(302);
  });

  it('IDN-7: Deny sends the client access_denied with its state, and no code', async () => {
    const page = await openPage(await register(), (await pkce()).challenge);
    const answer = await postForm({ handle: page.handle, decision: 'deny' }, page.cookie);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('IDN-7: a client cannot register an address a code must never go to', async () => {
    for (const uri of HOSTILE_REDIRECT_URIS) {
      const response = await api('/mcp/oauth/register', {
        method: 'POST',
        key: null,
        json: { client_name: 'hostile', redirect_uris: [uri], token_endpoint_auth_method: 'none' },
      });
      expect(response.status, uri).toBe(400);
      expect(await response.json()).not.toHaveProperty('client_id');
    }
  });

  it("IDN-7: a client's access token pasted into the page signs no one in: a token cannot make more grants", async () => {
    const token = await accessToken();
    const page = await openPage(await register(), (await pkce()).challenge);
    const answer = await postForm({ handle: page.handle, decision: 'approve', credential: token }, page.cookie);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('location')).toBeNull();
    expect(await answer.text()).not.toContain(token);
  });

  it('IDN-7: an unregistered redirect URI is never redirected to: the page says so instead', async () => {
    const clientId = await register();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'https://evil.example/callback',
      code_challenge: (await pkce()).challenge,
      code_challenge_method: 'S256',
    });
    const response = await api(`/mcp/oauth/authorize?${query}`, { key: null, redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('an issued access token', () => {
  it('IDN-7: signs in on /mcp as the person who allowed it, and nowhere else', async () => {
    const token = await accessToken();
    const initialized = await mcpInitialize(token);
    expect(initialized.status).toBe(200);
    await initialized.body?.cancel();
    // Issued for /mcp: not a key for the API.
    const listed = await api('/api/threads', { key: token });
    expect(listed.status).toBe(401);
    // Bound to this address: the same Worker reached at another one does not take it.
    const elsewhere = await worker.fetch(
      new Request('https://other-address.test/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(elsewhere.status).toBe(401);
    // One character off is no token.
    const forged = await mcpInitialize(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    expect(forged.status).toBe(401);
  });
});

describe('a grant made with a key issued through the API', () => {
  const ADMIN_KEY = 'test-oauth-bootstrap-admin-key';
  const adminEnv = { ...(env as unknown as RuntimeEnv), ADMIN_KEY } as unknown as RuntimeEnv;
  const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    createApp(new Registry({})).fetch(
      new Request(`${ORIGIN}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
      }),
      adminEnv,
      createExecutionContext(),
    );

  it('IDN-7: ends when the key is revoked or rotated, on the next request; grants made with other keys go on', async () => {
    const others = await accessToken(ALICE);
    for (const ending of KEY_ENDINGS_AFTER_GRANT) {
      const issued = await asAdmin('/api/keys', { method: 'POST', json: { tenant: 'oauth-tenant', role: 'member' } });
      expect(issued.status).toBe(201);
      const { key, id } = (await issued.json()) as { key: string; id: string };
      const token = await accessToken(key);
      const before = await mcpInitialize(token);
      expect(before.status, ending.label).toBe(200);
      await before.body?.cancel();

      const ended = await asAdmin(ending.path(id), { method: ending.method });
      expect(ended.status, ending.label).toBeLessThan(300);
      const after = await mcpInitialize(token);
      expect(after.status, ending.label).toBe(401);
      expect(await after.json()).toMatchObject({ error: { code: 'key_revoked' } });
      const unharmed = await mcpInitialize(others);
      expect(unharmed.status, ending.label).toBe(200);
      await unharmed.body?.cancel();
    }
  });
});

describe('without OAUTH_KV', () => {
  const app = createApp(new Registry({}));
  const withoutKv = { ...(env as unknown as RuntimeEnv), OAUTH_KV: undefined } as unknown as RuntimeEnv;
  const request = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`${ORIGIN}${path}`, init), withoutKv, createExecutionContext());

  it('IDN-7: OAuth is off: its paths answer oauth_not_configured, and /mcp challenges for keys only', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await request(path);
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'oauth_not_configured' } });
    }
    const page = await request('/mcp/oauth/authorize?client_id=x');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('OAUTH_KV');
    const mcp = await request('/mcp', { method: 'POST', body: JSON.stringify(INITIALIZE) });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).not.toContain('resource_metadata');
  });

  it('IDN-7: /mcp signs in with a key exactly as before', async () => {
    const response = await request('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ALICE}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });
});
