/**
 * MCP servers' tools as tools of a thread, through the HTTP API (LOCK-4, KIND-8, PERM-1, VAR-3):
 * the local MCP test server of global-setup.ts (the official SDK's server) over Streamable HTTP and
 * HTTP+SSE, a text, an image, a resource, a failing, a throwing and a slow tool, 200 deferred tools
 * found by tool_search, a deny rule, a forgotten session, an evicted thread, and an OAuth server
 * whose authorization completes only in the browser its owner started it in.
 * Every test makes its own thread; the model is scripted by the test's own user message.
 */
import { abortAllDurableObjects } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, inject, it, vi } from 'vitest';
import { BROWSER_STATE_TTL_MS, START_LINK_TTL_MS } from '../../src/thread/mcp/index.js';
import { ALICE, api, BOB, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { MCP_CALLBACK_FORGERIES, OAUTH_CALLBACK_BROWSERS } from '../support/hostile-corpus.js';
import {
  approve,
  authorizeInBrowser,
  callback,
  openStartLink,
  pathOf,
  requestStartLink,
} from '../support/oauth-browser.js';
import { markedAs, outsideData } from '../support/outside-data.js';
import { allFrames } from '../support/socket.js';

const TOKEN = 'mcp-bearer-canary-7f3a9c1e';

interface ToolCallScript {
  name: string;
  arguments?: Record<string, unknown>;
}

interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  status: string;
  sessionId?: string;
}

interface McpState {
  requests: {
    method: string;
    path: string;
    headers: Record<string, string>;
    tool?: string;
    sessionId?: string;
    status?: number;
  }[];
  calls: RecordedCall[];
}

async function mcpState(): Promise<McpState> {
  return (await (await fetch(`${env.SERVICES_URL}/mcp-admin/state`)).json()) as McpState;
}

function mcpVariables() {
  return { MCP_URL: inject('mcpUrl'), MCP_SSE_URL: inject('mcpSseUrl'), MCP_TOKEN: TOKEN };
}

/** A thread of `mcp` whose model makes `calls` in one step, then answers `done`. */
async function mcpThread(calls: ToolCallScript[], extra: Record<string, unknown> = {}): Promise<string> {
  return createThread({
    agent: 'mcp',
    variables: mcpVariables(),
    messages: [{ content: directive([{ toolCalls: calls }, { text: 'done' }]) }],
    ...extra,
  });
}

function results(log: readonly Message[]): Message[] {
  return log.filter((message) => message.role === 'tool');
}

function unique(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

describe('MCP client tools', () => {
  it('LOCK-4: a Streamable HTTP tool answers; the secret header reaches the server and nothing else', async () => {
    const marker = unique('hello');
    const id = await mcpThread([{ name: 'tools__echo', arguments: { text: marker } }, { name: 'tools__whoami' }]);
    const log = await settled(id);
    const [echo, whoami] = results(log);
    expect(echo).toMatchObject({ name: 'tools__echo', tool_status: 'success', content: markedAs(`echo: ${marker}`) });
    expect(JSON.parse(outsideData(whoami?.content))).toMatchObject({ authorization: true });

    const state = await mcpState();
    const session = state.calls.find((call) => call.args.text === marker)?.sessionId;
    const request = state.requests.find((seen) => seen.tool === 'echo' && seen.sessionId === session);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // VAR-3: the header's secret is in no message and no frame.
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(JSON.stringify(await allFrames(id))).not.toContain(TOKEN);
  });

  it('LOCK-4: an image becomes an attachment, a resource is quoted, errors are results the model reads', async () => {
    const id = await mcpThread([
      { name: 'tools__pixel' },
      { name: 'tools__fetch_doc', arguments: { name: 'guide' } },
      { name: 'tools__fail', arguments: { reason: 'the disk is full' } },
      { name: 'tools__echo', arguments: { wrong: 1 } },
    ]);
    const [pixel, doc, fail, invalid] = results(await settled(id));
    expect(pixel?.tool_status).toBe('success');
    expect(pixel?.attachments?.[0]).toMatchObject({ mimeType: 'image/png' });
    const stored = await api(`/api/threads/${id}/files${pixel?.attachments?.[0]?.path}`);
    expect(stored.status).toBe(200);
    expect([...new Uint8Array(await stored.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(doc?.content).toContain('Resource docs://guide');
    expect(fail).toMatchObject({ tool_status: 'error' });
    expect(fail?.content).toContain('the disk is full');
    // EXE-1: arguments the server's schema refuses never reach the server.
    expect(invalid?.tool_status).toBe('error');
    expect(invalid?.content).toMatch(/text/);
    expect((await mcpState()).calls.some((call) => JSON.stringify(call.args).includes('"wrong"'))).toBe(false);
  });

  it('LOCK-4 (seed 002): a call past the server timeout fails as a timeout and the server is told to cancel', async () => {
    const ms = 20_000 + Math.floor(Math.random() * 1000);
    const id = await mcpThread([{ name: 'tools__slow', arguments: { ms } }]);
    const [slow] = results(await settled(id));
    expect(slow?.tool_status).toBe('error');
    expect(slow?.content).toMatch(/timed out/i);
    const cancelled = await until(mcpState, (state) =>
      state.calls.some((call) => call.tool === 'slow' && call.args.ms === ms && call.status === 'cancelled'),
    );
    expect(cancelled.calls.filter((call) => call.tool === 'slow' && call.args.ms === ms)).toHaveLength(1);
  });

  it('LOCK-4: the HTTP+SSE transport serves the same tools', async () => {
    const marker = unique('legacy');
    const id = await mcpThread([{ name: 'legacy__echo', arguments: { text: marker } }]);
    const [echo] = results(await settled(id));
    expect(echo).toMatchObject({ tool_status: 'success', content: markedAs(`echo: ${marker}`) });
    // The call arrived in a session of the SSE transport: its messages are POSTed to /messages.
    const state = await mcpState();
    const session = state.calls.find((call) => call.args.text === marker)?.sessionId;
    expect(session).toBeTruthy();
    expect(
      state.requests.some((request) => request.path.startsWith('/messages') && request.sessionId === session),
    ).toBe(true);
  });

  it('KIND-8, LOCK-4: 200 deferred MCP tools are found by tool_search and then called', async () => {
    const id = await createThread({
      agent: 'mcp',
      variables: mcpVariables(),
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'tool_search', arguments: { query: 'catalog_042' } }] },
            { toolCalls: [{ name: 'catalog__catalog_042', arguments: { query: 'harbour' } }] },
            { text: 'done' },
          ]),
        },
      ],
    });
    const [search, call] = results(await settled(id));
    expect(search?.content).toContain('catalog__catalog_042');
    expect(call).toMatchObject({ tool_status: 'success' });
    expect(call?.content).toContain('catalog_042 ok');
  });

  it('PERM-1: deny rules on an MCP tool and on its host hold; nothing reaches the server', async () => {
    const marker = unique('denied');
    const id = await mcpThread(
      [
        { name: 'tools__echo', arguments: { text: marker } },
        { name: 'tools__explode' },
        { name: 'legacy__echo', arguments: { text: marker } },
      ],
      { permissions: [{ permission: 'tools__echo', pattern: '127.0.0.1', action: 'deny' }] },
    );
    const [echo, explode, legacy] = results(await settled(id));
    expect(echo?.tool_status).toBe('error');
    expect(echo?.content).toMatch(/denied/i);
    // The manifest's deny of tools__explode is final.
    expect(explode?.tool_status).toBe('error');
    expect(explode?.content).toMatch(/denied/i);
    expect(legacy?.tool_status).toBe('success');
    const state = await mcpState();
    expect(state.calls.filter((call) => call.tool === 'echo' && call.args.text === marker)).toHaveLength(1);
    expect(state.calls.some((call) => call.tool === 'explode')).toBe(false);
  });

  it('LOCK-4, THR-3: an evicted thread and a restarted server keep working without the model noticing', async () => {
    const first = unique('before');
    const id = await createThread({
      agent: 'mcp',
      variables: mcpVariables(),
      messages: [
        { content: directive([{ toolCalls: [{ name: 'tools__echo', arguments: { text: first } }] }, { text: 'one' }]) },
      ],
    });
    await settled(id);
    const sessionBefore = (await mcpState()).calls.find((call) => call.args.text === first)?.sessionId;
    expect(sessionBefore).toBeTruthy();

    // The object is evicted: the next call resumes the stored session, without listing again.
    await abortAllDurableObjects();
    const second = unique('after-eviction');
    const listsBefore = (await mcpState()).requests.filter((request) => request.sessionId === sessionBefore).length;
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'tools__echo', arguments: { text: second } }] }, { text: 'two' }]),
      },
    });
    const afterEviction = results(
      await until(
        () => messages(id),
        (log) => log.at(-1)?.content === 'two',
      ),
    );
    expect(afterEviction.at(-1)).toMatchObject({ tool_status: 'success', content: markedAs(`echo: ${second}`) });
    const state = await mcpState();
    expect(state.calls.find((call) => call.args.text === second)?.sessionId).toBe(sessionBefore);
    const sinceEviction = state.requests.filter((request) => request.sessionId === sessionBefore).slice(listsBefore);
    expect(sinceEviction.some((request) => JSON.stringify(request).includes('tools/list'))).toBe(false);

    // The server forgets every session (a restart): the next call opens a new one and succeeds.
    await fetch(`${env.SERVICES_URL}/mcp-admin/drop-sessions`);
    const third = unique('after-restart');
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'tools__echo', arguments: { text: third } }] }, { text: 'three' }]),
      },
    });
    const afterRestart = results(
      await until(
        () => messages(id),
        (log) => log.at(-1)?.content === 'three',
      ),
    );
    expect(afterRestart.at(-1)).toMatchObject({ tool_status: 'success', content: markedAs(`echo: ${third}`) });
    const newSession = (await mcpState()).calls.find((call) => call.args.text === third)?.sessionId;
    expect(newSession).toBeTruthy();
    expect(newSession).not.toBe(sessionBefore);
  });

  it("LOCK-4: GET /api/agents shows each agent's MCP servers and, once a thread listed them, their tools", async () => {
    await settled(await mcpThread([{ name: 'tools__whoami' }]));
    type Agents = {
      agents: {
        name: string;
        mcp_servers: { name: string; headers: string[]; connected: boolean; tools?: { name: string }[] }[];
      }[];
    };
    const serversOf = (body: Agents) => body.agents.find((agent) => agent.name === 'mcp')?.mcp_servers ?? [];
    // The listing is indexed off the turn's path: it is visible once the index write lands.
    const body = await until(
      async () => (await (await api('/api/agents')).json()) as Agents,
      (seen) => serversOf(seen).find((server) => server.name === 'tools')?.connected === true,
    );
    const servers = serversOf(body);
    expect(servers.map((server) => server.name).sort()).toEqual(['catalog', 'legacy', 'tools']);
    const tools = servers.find((server) => server.name === 'tools');
    expect(tools).toMatchObject({ headers: ['authorization'], connected: true });
    expect(tools?.tools?.map((tool) => tool.name).sort()).toEqual(
      ['echo', 'explode', 'fail', 'fetch_doc', 'pixel', 'slow', 'whoami'].map((name) => `tools__${name}`),
    );
    expect(servers.find((server) => server.name === 'catalog')?.tools).toHaveLength(200);
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('LOCK-4: a server that cannot be reached is offered as a connect tool that says why', async () => {
    const id = await createThread({
      agent: 'mcp',
      // Port 1 of the test host: nothing listens there, and the egress policy does not admit it.
      variables: { ...mcpVariables(), MCP_SSE_URL: 'http://127.0.0.1:1/sse' },
      messages: [{ content: directive([{ toolCalls: [{ name: 'legacy__connect' }] }, { text: 'done' }]) }],
    });
    const [connect] = results(await settled(id));
    expect(connect?.tool_status).toBe('error');
    expect(connect?.content).toMatch(/Could not connect to the MCP server "legacy"/);
    expect((await thread(id)).status).toBe('idle');
  });
});

interface OAuthState {
  secrets: string[];
  tokenRequests: { grantType: string; pkceVerified?: boolean }[];
  registrations: unknown[];
  calls: RecordedCall[];
}

async function oauthState(): Promise<OAuthState> {
  return (await (await fetch(`${env.SERVICES_URL}/mcp-admin/oauth`)).json()) as OAuthState;
}

/** How many authorization codes the thread has tried to exchange so far. */
async function codeExchanges(): Promise<number> {
  return (await oauthState()).tokenRequests.filter((request) => request.grantType === 'authorization_code').length;
}

interface WaitingView {
  status: string;
  waiting_for: {
    tool_call_id: string;
    kind: string;
    name: string;
    payload: Record<string, unknown>;
  }[];
}

/** A thread of `mcp_oauth` whose model connects the server, calls its echo with `marker`, then answers. */
async function oauthThread(marker: string, extra: Record<string, unknown> = {}, key = ALICE): Promise<string> {
  return createThread(
    {
      agent: 'mcp_oauth',
      variables: { MCP_OAUTH_URL: inject('mcpOAuthUrl') },
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'secure__connect' }] },
            { toolCalls: [{ name: 'secure__echo', arguments: { text: marker } }] },
            { text: 'done' },
          ]),
        },
      ],
      ...extra,
    },
    key,
  );
}

/** The thread once its call waits for the server's authorization. */
function waiting(id: string, key = ALICE): Promise<WaitingView> {
  return until(
    async () => (await (await api(`/api/threads/${id}`, { key })).json()) as WaitingView,
    (seen) => seen.status === 'waiting',
  );
}

/** The thread still waits for the server's authorization, and its log is what it was. */
async function stillWaiting(id: string, log: Message[], key = ALICE): Promise<void> {
  const view = (await (await api(`/api/threads/${id}`, { key })).json()) as WaitingView;
  expect(view.status).toBe('waiting');
  expect(view.waiting_for.map((wait) => wait.kind)).toEqual(['mcp_auth']);
  expect(await messages(id, '', key)).toEqual(log);
}

describe('MCP servers behind OAuth', () => {
  it('LOCK-4: the owner starts the authorization in a browser, the callback completes it there, the call runs; no token leaks', async () => {
    const marker = unique('oauth');
    const id = await oauthThread(marker);
    const wait = (await waiting(id)).waiting_for[0];
    // The wait names the server and where the user will be sent; the authorization URL itself stays in the thread.
    expect(wait).toMatchObject({ kind: 'mcp_auth', name: 'secure__connect' });
    expect(wait?.payload).toEqual({ server: 'secure', authorization_server: new URL(inject('mcpOAuthUrl')).origin });

    const startUrl = await requestStartLink(id);
    expect(startUrl).toMatch(/^https:\/\/agents\.test\/oauth\/mcp\/start\?ticket=/);
    const started = await openStartLink(startUrl);
    const authorization = new URL(started.authorizationUrl);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(started.state.startsWith(`${id}.`)).toBe(true);
    // The browser is bound by a host-only, Secure, HttpOnly, Lax cookie for the time the authorization may take.
    expect(started.cookie.name).toMatch(/^__Host-mcp-oauth-[A-Za-z0-9_-]+$/);
    expect(started.cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const attributes = started.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['max-age=600', 'path=/', 'httponly', 'secure', 'samesite=lax']));
    expect(attributes.some((part) => part.startsWith('domain='))).toBe(false);
    // The link opens one browser, once.
    const again = await api(pathOf(startUrl), { key: null, redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(again.headers.get('set-cookie')).toBeNull();

    const cookie = `${started.cookie.name}=${started.cookie.value}`;
    const path = await approve(started.authorizationUrl);
    const page = await callback(path, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Authorized');
    // The cookie has done its work: the browser is told to forget it.
    expect(page.headers.get('set-cookie')).toMatch(new RegExp(`^${started.cookie.name}=; Max-Age=0`));

    const log = await settled(id);
    const [connect, echo] = results(log);
    expect(connect).toMatchObject({ tool_status: 'success' });
    expect(connect?.content).toContain('secure__echo');
    expect(echo).toMatchObject({ tool_status: 'success', content: markedAs(`echo: ${marker}`) });
    const state = await oauthState();
    expect(
      state.tokenRequests.some((request) => request.grantType === 'authorization_code' && request.pkceVerified),
    ).toBe(true);

    // The same callback again, cookie and all, changes nothing: its state was spent.
    const exchanges = await codeExchanges();
    const replay = await callback(path, cookie);
    expect(replay.status).toBe(400);
    expect(await codeExchanges()).toBe(exchanges);

    // No token, code or client secret in the log, the frames or what the model was sent.
    const frames = JSON.stringify(await allFrames(id));
    const logText = JSON.stringify(await messages(id));
    for (const secret of state.secrets) {
      expect(logText).not.toContain(secret);
      expect(frames).not.toContain(secret);
      const sent = (await (
        await fetch(`${env.SERVICES_URL}/model-requests?containing=${encodeURIComponent(secret)}`)
      ).json()) as unknown[];
      expect(sent).toEqual([]);
    }
  });

  it('LOCK-4: a callback from a browser that did not start the authorization is refused, and no token lands in the thread', async () => {
    const id = await oauthThread(unique('bound'));
    await waiting(id);
    const own = await openStartLink(await requestStartLink(id));
    // Another user's authorization under way, in another browser.
    const other = await oauthThread(unique('other'), {}, BOB);
    await waiting(other, BOB);
    const elsewhere = await openStartLink(await requestStartLink(other, 'secure', BOB));
    const log = await messages(id);
    const otherLog = await messages(other, '', BOB);

    // Whoever sees the authorization URL can approve it with their own account: that code comes back
    // with this thread's state, from a browser that is not the owner's.
    const stolen = await approve(own.authorizationUrl);
    const exchanges = await codeExchanges();
    for (const attempt of OAUTH_CALLBACK_BROWSERS) {
      const response = await callback(
        `${stolen}${attempt.query?.(own.cookie) ?? ''}`,
        attempt.cookie(own.cookie, elsewhere.cookie),
      );
      expect(response.status, attempt.label).toBe(403);
      expect(await response.text(), attempt.label).toContain('This browser did not start this authorization');
    }
    // No code was exchanged, no token stored, no call answered: the call still needs authorization.
    expect(await codeExchanges()).toBe(exchanges);
    await stillWaiting(id, log);

    // The owner's browser, holding its own cookie, still completes it; the other user's is unharmed.
    const page = await callback(await approve(own.authorizationUrl), `${own.cookie.name}=${own.cookie.value}`);
    expect(page.status).toBe(200);
    expect(results(await settled(id)).at(-1)).toMatchObject({ tool_status: 'success' });
    await stillWaiting(other, otherLog, BOB);
    const theirs = await callback(
      await approve(elsewhere.authorizationUrl),
      `${elsewhere.cookie.name}=${elsewhere.cookie.value}`,
    );
    expect(theirs.status).toBe(200);
    expect(results(await settled(other, BOB)).at(-1)).toMatchObject({ tool_status: 'success' });
  });

  it('LOCK-4: an expired link or authorization is refused with the right cookie, and the call still waits for a new one', async () => {
    const id = await oauthThread(unique('expiry'));
    await waiting(id);
    const log = await messages(id);
    const exchanges = await codeExchanges();
    try {
      // A link opened after its five minutes sets no cookie and sends nowhere.
      const lateLink = await requestStartLink(id);
      vi.setSystemTime(Date.now() + START_LINK_TTL_MS + 1000);
      const late = await api(pathOf(lateLink), { key: null, redirect: 'manual' });
      expect(late.status).toBe(400);
      expect(await late.text()).toContain('expired');
      expect(late.headers.get('set-cookie')).toBeNull();
      vi.useRealTimers();

      // A browser that comes back after its ten minutes, with its own cookie, is refused too.
      const started = await openStartLink(await requestStartLink(id));
      const path = await approve(started.authorizationUrl);
      vi.setSystemTime(Date.now() + BROWSER_STATE_TTL_MS + 1000);
      const expired = await callback(path, `${started.cookie.name}=${started.cookie.value}`);
      expect(expired.status).toBe(400);
      expect(await expired.text()).toContain('expired');
      vi.useRealTimers();
      // Spent: the same callback in time again is refused as well.
      expect((await callback(path, `${started.cookie.name}=${started.cookie.value}`)).status).toBe(400);
    } finally {
      vi.useRealTimers();
    }
    expect(await codeExchanges()).toBe(exchanges);
    await stillWaiting(id, log);
    // A new link starts it again, and this time it completes.
    expect((await authorizeInBrowser(id)).status).toBe(200);
    expect(results(await settled(id)).at(-1)).toMatchObject({ tool_status: 'success' });
  });

  it('LOCK-4: only the owner gets a start link, only for a server a call waits for', async () => {
    const id = await oauthThread(unique('keyed'));
    await waiting(id);
    const start = (json: unknown, key: string | null = ALICE) =>
      api(`/api/threads/${id}/mcp-authorizations`, { method: 'POST', json, key });
    expect((await start({ server: 'secure' }, null)).status).toBe(401);
    expect((await start({ server: 'secure' }, BOB)).status).toBe(404);
    const notWaited = await start({ server: 'tools' });
    expect(notWaited.status).toBe(409);
    expect(await notWaited.json()).toMatchObject({ error: { code: 'not_waiting' } });
    expect((await start({})).status).toBe(400);
    // A link asked for again replaces the one before.
    const first = await requestStartLink(id);
    const second = await requestStartLink(id);
    expect((await api(pathOf(first), { key: null, redirect: 'manual' })).status).toBe(400);
    expect((await api(pathOf(second), { key: null, redirect: 'manual' })).status).toBe(302);
  });

  it('LOCK-4, THR-3: an authorization survives an eviction, and expired tokens are refreshed without asking again', async () => {
    const first = unique('before-expiry');
    const id = await oauthThread(first);
    await waiting(id);
    const started = await openStartLink(await requestStartLink(id));
    // Evicted between the browser's start and its callback: the sealed verifier, state and binding remain.
    await abortAllDurableObjects();
    const page = await callback(
      await approve(started.authorizationUrl),
      `${started.cookie.name}=${started.cookie.value}`,
    );
    expect(page.status).toBe(200);
    expect(results(await settled(id)).at(-1)).toMatchObject({
      tool_status: 'success',
      content: markedAs(`echo: ${first}`),
    });

    await fetch(`${env.SERVICES_URL}/mcp-admin/oauth/expire`);
    const second = unique('after-expiry');
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([{ toolCalls: [{ name: 'secure__echo', arguments: { text: second } }] }, { text: 'again' }]),
      },
    });
    const log = await until(
      () => messages(id),
      (seen) => seen.at(-1)?.content === 'again',
    );
    expect(results(log).at(-1)).toMatchObject({ tool_status: 'success', content: markedAs(`echo: ${second}`) });
    expect((await oauthState()).tokenRequests.some((request) => request.grantType === 'refresh_token')).toBe(true);
    expect((await thread(id)).status).toBe('idle');
  });

  it('PERM-2: a headless thread fails the call at once instead of waiting', async () => {
    const id = await oauthThread(unique('headless'), { headless: true });
    const [connect] = results(await settled(id));
    expect(connect?.tool_status).toBe('error');
    expect(connect?.content).toMatch(/headless/);
    expect((await thread(id)).status).toBe('idle');
  });

  it('LOCK-4: a forged callback state is refused and changes nothing', async () => {
    const id = await oauthThread(unique('forged'));
    await waiting(id);
    const before = await messages(id);
    const exchanges = await codeExchanges();
    for (const forgery of MCP_CALLBACK_FORGERIES) {
      const response = await api(`/oauth/mcp/callback?${forgery.query.replaceAll('{id}', id)}`, { key: null });
      expect(response.status, forgery.label).toBeGreaterThanOrEqual(400);
    }
    await stillWaiting(id, before);
    expect(await codeExchanges()).toBe(exchanges);
  });
});
