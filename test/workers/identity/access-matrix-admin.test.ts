/**
 * The access rule beyond a single thread's routes, in workerd (IDN-1, IDN-4, IDN-9): who may start a
 * thread, exactly which threads each principal's listing holds (over `GET /api/threads` and the MCP
 * `list_threads` tool alike), the MCP thread tools as each role, and the admin routes (keys, audit,
 * limits), which answer admins only and never show one tenant's keys or log to another's admin.
 */
import { createExecutionContext } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../worker.js';
import { adminEnv, call, makeWorld, startThread, view, WHO, type Who, type World } from './access-world.js';

const handler = worker as { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => Promise<Response> };

/** A row as the tables write it: A's five columns, a bar, B's four. */
function row(cells: string[]): string {
  return [...cells.slice(0, 5), '|', ...cells.slice(5)].join(' ');
}
const cells = (text: string) => text.trim().split(/\s+/).join(' ');

let world: World;
beforeAll(async () => {
  world = await makeWorld();
});

describe('IDN-1, IDN-4: starting and listing threads', () => {
  //                          viewer owner member approver admin | B: viewer member approver admin
  const START = /*         */ ' 403    ok    ok      ok      ok   |    403    ok      ok      ok';
  const STARTERS: Who[] = ['owner', 'member', 'approver', 'admin', 'B member', 'B approver', 'B admin'];
  const A_SHARED = 'owner:shared member:shared approver:shared admin:shared';
  const B_SHARED = 'B-member:shared B-approver:shared B-admin:shared';
  /** Each principal's listing: its own threads, its tenant's shared ones, and as admin all of its tenant's. */
  const LISTING: Record<Who, string> = {
    viewer: A_SHARED,
    owner: `owner:private ${A_SHARED}`,
    member: `member:private ${A_SHARED}`,
    approver: `approver:private ${A_SHARED}`,
    admin: `owner:private member:private approver:private admin:private ${A_SHARED}`,
    'B viewer': B_SHARED,
    'B member': `B-member:private ${B_SHARED}`,
    'B approver': `B-approver:private ${B_SHARED}`,
    'B admin': `B-member:private B-approver:private B-admin:private ${B_SHARED}`,
  };
  const names = new Map<string, string>();

  it('IDN-4: POST /api/threads takes a member; a viewer is refused and nothing is created', async () => {
    const outcomes: string[] = [];
    for (const who of WHO) {
      for (const shared of [false, true]) {
        const response = await call('/api/threads', world.keys[who], {
          method: 'POST',
          json: { agent: 'general', shared },
        });
        if (shared) outcomes.push(response.status === 201 ? 'ok' : String(response.status));
        if (response.status !== 201) continue;
        const { id } = (await response.json()) as { id: string };
        names.set(id, `${who.replace(' ', '-')}:${shared ? 'shared' : 'private'}`);
      }
    }
    expect(row(outcomes)).toBe(cells(START));
    expect(names.size).toBe(STARTERS.length * 2);
  });

  it('IDN-1: GET /api/threads lists exactly the threads each principal sees', async () => {
    for (const who of WHO) {
      const response = await call('/api/threads?limit=100', world.keys[who]);
      expect(response.status).toBe(200);
      const { threads } = (await response.json()) as { threads: { id: string }[] };
      const listed = threads.map((thread) => names.get(thread.id) ?? `unknown:${thread.id}`);
      expect(listed.sort(), who).toEqual(LISTING[who].split(' ').sort());
    }
  });

  it('IDN-1: the MCP list_threads tool lists the same threads as GET /api/threads', async () => {
    for (const who of WHO) {
      const client = await connect(world.keys[who]);
      const result = (await client.callTool({ name: 'list_threads', arguments: { limit: 100 } })) as CallToolResult;
      const { threads } = result.structuredContent as { threads: { id: string }[] };
      const listed = threads.map((thread) => names.get(thread.id) ?? `unknown:${thread.id}`);
      expect(listed.sort(), who).toEqual(LISTING[who].split(' ').sort());
    }
  });
});

// ---- MCP --------------------------------------------------------------------------------------

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The SDK's own MCP client, signed in with `key`, speaking to /mcp through the Worker. */
async function connect(key: string): Promise<Client> {
  const client = new Client(
    { name: 'access-matrix', version: '1.0.0' },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  const transport = new StreamableHTTPClientTransport(new URL('https://runtime.test/mcp'), {
    fetch: (input, init) => handler.fetch(new Request(input, init), adminEnv, createExecutionContext()),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** `ok`, or the error code an error result starts with (`thread_not_found: ...`, `forbidden: ...`). */
function toolOutcome(result: CallToolResult): string {
  if (!result.isError) return 'ok';
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  return text.split(':')[0] ?? text;
}

describe('IDN-1, IDN-4: the MCP thread tools as each role', () => {
  //                                   viewer owner member approver admin | B: viewer member approver admin
  const MCP = {
    'read_thread private': /*        */ 'hid    ok    hid     hid     ok   |    hid    hid     hid     hid',
    'read_thread shared': /*         */ 'ok     ok    ok      ok      ok   |    hid    hid     hid     hid',
    'general thread_id private': /*  */ 'hid    ok    hid     hid     ok   |    hid    hid     hid     hid',
    'general thread_id shared': /*   */ 'no     ok    ok      ok      ok   |    hid    hid     hid     hid',
    'general new thread': /*         */ 'no     ok    ok      ok      ok   |    no     ok      ok      ok',
  };
  const CODE: Record<string, string> = { hid: 'thread_not_found', no: 'forbidden' };

  it('IDN-1 IDN-4: tools/list, read_thread and an agent tool, as each principal', { timeout: 120_000 }, async () => {
    const owner = world.keys.owner;
    const threads = {
      private: await startThread(owner, { agent: 'general' }),
      shared: await startThread(owner, { agent: 'general', shared: true }),
    };
    const outcomes: Record<string, string[]> = Object.fromEntries(Object.keys(MCP).map((name) => [name, []]));
    for (const who of WHO) {
      const client = await connect(world.keys[who]);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['general', 'list_threads', 'read_thread']),
      );
      for (const kind of ['private', 'shared'] as const) {
        const thread_id = threads[kind];
        const read = (await client.callTool({ name: 'read_thread', arguments: { thread_id } })) as CallToolResult;
        outcomes[`read_thread ${kind}`]?.push(toolOutcome(read));
        const before = (await view(thread_id, owner)).message_count;
        const message = `from ${who}`;
        const post = (await client.callTool({ name: 'general', arguments: { message, thread_id } })) as CallToolResult;
        outcomes[`general thread_id ${kind}`]?.push(toolOutcome(post));
        // A refused post leaves the log as it was; an accepted one adds the message and its answer.
        expect((await view(thread_id, owner)).message_count, `${who} on ${kind}`).toBe(before + (post.isError ? 0 : 2));
      }
      const started = (await client.callTool({ name: 'general', arguments: { message: 'hello' } })) as CallToolResult;
      outcomes['general new thread']?.push(toolOutcome(started));
    }
    for (const [name, expected] of Object.entries(MCP)) {
      const want = cells(expected)
        .split(' ')
        .map((cell) => CODE[cell] ?? cell);
      expect(row(outcomes[name] ?? []), name).toBe(row(want.filter((cell) => cell !== '|')));
    }
  });
});

// ---- admin routes -----------------------------------------------------------------------------

describe('IDN-4, IDN-9: the admin routes answer admins only, each of its own tenant', () => {
  //                          viewer owner member approver admin | B: viewer member approver admin
  const ADMINS_ONLY = /*   */ ' 403    403   403     403     ok   |    403    403     403     ok';
  const ROUTES: { name: string; ok: number; send: (key: string) => Promise<Response> }[] = [
    { name: 'GET /api/keys', ok: 200, send: (key) => call('/api/keys', key) },
    {
      name: 'POST /api/keys',
      ok: 201,
      send: (key) => call('/api/keys', key, { method: 'POST', json: { role: 'viewer', name: 'made in the matrix' } }),
    },
    { name: 'GET /api/audit', ok: 200, send: (key) => call('/api/audit', key) },
    { name: 'GET /api/limits', ok: 200, send: (key) => call('/api/limits', key) },
    {
      name: 'PUT /api/limits',
      ok: 200,
      send: (key) => call('/api/limits', key, { method: 'PUT', json: { tenant: { requestsPerMinute: 10_000 } } }),
    },
  ];

  for (const route of ROUTES) {
    it(`IDN-4: ${route.name} as each principal`, async () => {
      const outcomes: string[] = [];
      for (const who of WHO) {
        const response = await route.send(world.keys[who]);
        outcomes.push(response.status === route.ok ? 'ok' : String(response.status));
        if (response.status === 403)
          expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden');
      }
      expect(row(outcomes)).toBe(cells(ADMINS_ONLY));
    });
  }

  it("IDN-9: an admin lists only its tenant's keys and log, and cannot reach another tenant's keys", async () => {
    const listed = async (who: Who, path: string) => {
      const response = await call(path, world.keys[who]);
      expect(response.status).toBe(200);
      return (await response.json()) as {
        keys?: { id: string; tenant: string; role: string; name: string | null }[];
        entries?: { tenant: string; target: string | null }[];
      };
    };
    const aKeys = (await listed('admin', '/api/keys?limit=200')).keys ?? [];
    const bKeys = (await listed('B admin', '/api/keys?limit=200')).keys ?? [];
    expect(new Set(aKeys.map((key) => key.tenant))).toEqual(new Set([world.tenants.A]));
    expect(new Set(bKeys.map((key) => key.tenant))).toEqual(new Set([world.tenants.B]));
    // The five keys of A's principals, and one made by its admin: the other roles' attempts made none.
    expect(aKeys.filter((key) => key.name === 'made in the matrix')).toHaveLength(1);
    expect(aKeys).toHaveLength(6);
    const aIds = new Set(aKeys.map((key) => key.id));
    const bAudit = (await listed('B admin', '/api/audit?limit=200')).entries ?? [];
    expect(bAudit.length).toBeGreaterThan(0);
    for (const entry of bAudit) {
      expect(entry.tenant).toBe(world.tenants.B);
      expect(aIds.has(entry.target ?? '')).toBe(false);
    }
    // Another tenant's key reads as one that does not exist; naming the other tenant is refused.
    const aKey = aKeys[0]?.id ?? '';
    const unknown = await call('/api/keys/aaaaaaaaaa', world.keys['B admin'], { method: 'DELETE' });
    for (const [method, path, json] of [
      ['DELETE', `/api/keys/${aKey}`, undefined],
      ['PATCH', `/api/keys/${aKey}`, { role: 'admin' }],
      ['POST', `/api/keys/${aKey}/rotate`, undefined],
    ] as const) {
      const response = await call(path, world.keys['B admin'], { method, ...(json ? { json } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.text()).toBe(await unknown.clone().text());
    }
    const aAfter = (await listed('admin', '/api/keys?limit=200')).keys ?? [];
    expect(aAfter.find((key) => key.id === aKey)).toMatchObject({ revoked_at: null, role: aKeys[0]?.role });
    for (const path of [
      `/api/keys?tenant=${world.tenants.A}`,
      `/api/audit?tenant=${world.tenants.A}`,
      `/api/limits?tenant=${world.tenants.A}`,
    ]) {
      expect((await call(path, world.keys['B admin'])).status, path).toBe(403);
    }
    const crossCreate = await call('/api/keys', world.keys['B admin'], {
      method: 'POST',
      json: { role: 'admin', tenant: world.tenants.A },
    });
    expect(crossCreate.status).toBe(403);
  });
});
