/**
 * The access rule (src/thread/access/thread-access.ts) as a table, driven through every thread route
 * of the Worker in workerd (IDN-1, IDN-4, IDN-9). Tenant A's member `owner` starts a private and a
 * shared thread; each row says what each principal of A and B gets on one of them: `ok` (the route
 * did what it was asked), `403` (seen, but not this role's to do) or `404` (not seen: the same body as
 * an id nobody used). A refused request changes nothing: the log keeps its length, the call keeps
 * waiting, the file is not stored, the thread is not deleted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/api.js';
import { directive } from '../../support/directive-script.js';
import {
  call,
  hiddenBody,
  makeWorld,
  parked,
  startThread,
  type ThreadView,
  view,
  WHO,
  type World,
} from './access-world.js';

//                                  viewer owner member approver admin | B: viewer member approver admin
const PRIVATE = {
  read: /*                      */ ' 404    ok    404     404     ok   |    404    404     404     404',
  write: /*                     */ ' 404    ok    404     404     ok   |    404    404     404     404',
  approve: /*                   */ ' 404    403   404     404     ok   |    404    404     404     404',
  delete: /*                    */ ' 404    ok    404     404     ok   |    404    404     404     404',
};
const SHARED = {
  read: /*                      */ ' ok     ok    ok      ok      ok   |    404    404     404     404',
  write: /*                     */ ' 403    ok    ok      ok      ok   |    404    404     404     404',
  approve: /*                   */ ' 403    403   403     ok      ok   |    404    404     404     404',
  delete: /*                    */ ' 403    ok    403     403     ok   |    404    404     404     404',
};
type Action = keyof typeof PRIVATE;

/** What one request is sent to: the thread, and the waiting call or deferred request it answers. */
interface Target {
  id: string;
  ref?: string;
}

interface Route {
  /** The route, as docs/api.md names it. */
  name: string;
  action: Action;
  /** The status of a request that did what it asked. */
  ok: number;
  /** What the next request is sent to (a fresh thread, the call that waits now...). */
  target(shared: boolean): Promise<Target>;
  send(target: Target, key: string, who: string): Promise<Response>;
  /** After a refusal: asserts that nothing changed. */
  unchanged?(target: Target, before: ThreadView, who: string): Promise<void>;
  /** After a request that did what it asked: waits until the thread is quiet again. */
  settle?(target: Target, before: ThreadView): Promise<void>;
}

let world: World;
const plain: Record<'private' | 'shared', string> = { private: '', shared: '' };
const UNKNOWN = crypto.randomUUID();
const owner = () => world.keys.owner;
const fixed = async (shared: boolean): Promise<Target> => ({ id: plain[shared ? 'shared' : 'private'] });

beforeAll(async () => {
  world = await makeWorld();
  for (const kind of ['private', 'shared'] as const) {
    plain[kind] = await startThread(owner(), { agent: 'general', shared: kind === 'shared' });
    const put = await call(`/api/threads/${plain[kind]}/files/notes.txt`, owner(), {
      method: 'PUT',
      body: 'the owner wrote this',
      headers: { 'content-type': 'text/plain', 'content-length': '20' },
    });
    expect(put.status).toBe(201);
  }
});

// ---- threads that wait on a person: each answered call is followed by the next that waits -----

const QUESTIONS = [{ question: 'Which colour?', options: [{ label: 'red' }] }];
const WAITS = {
  approval: { agent: 'general', call: { name: 'guarded_increment' }, answer: { approved: true } },
  question: {
    agent: 'general',
    call: { name: 'question', arguments: { questions: QUESTIONS } },
    answer: { answers: [['red']] },
  },
  client_tool: {
    agent: 'general',
    call: { name: 'client_lookup', arguments: { key: 'k1' } },
    answer: { output: { found: true } },
  },
  // store_secret asks at most twice per turn, so each thread asks twice.
  secret: {
    agent: 'sec_scripted',
    call: { name: 'store_secret', arguments: { name: 'SEC_API_KEY', reason: 'The service answered 401' } },
    answer: { value: 'a-long-enough-secret' },
  },
};
type WaitKind = keyof typeof WAITS;
const waitingThreads = new Map<string, string>();

/** The thread once a call of it waits. */
function waitingOn(id: string): Promise<ThreadView> {
  return until(
    () => view(id, owner()),
    (thread) => thread.waiting_for.length > 0,
  );
}

/** The call that waits for `kind` now: the current thread's next one, or a new thread's first. */
async function waitingCall(kind: WaitKind, shared: boolean): Promise<Target> {
  const pool = `${kind}:${shared}`;
  const current = waitingThreads.get(pool);
  const wait = current ? (await parked(current, owner())).waiting_for[0] : undefined;
  if (current && wait?.kind === kind) return { id: current, ref: wait.tool_call_id };
  const { agent, call: toolCall } = WAITS[kind];
  const script = directive([{ toolCalls: [toolCall, toolCall] }, { text: 'all answered' }]);
  const id = await startThread(owner(), { agent, shared, messages: [{ content: script }] });
  waitingThreads.set(pool, id);
  const first = (await waitingOn(id)).waiting_for[0];
  expect(first?.kind).toBe(kind);
  return { id, ref: first?.tool_call_id };
}

function answerRoute(name: string, kind: WaitKind, path: string): Route {
  return {
    name,
    action: kind === 'approval' ? 'approve' : 'write',
    ok: 200,
    target: (shared) => waitingCall(kind, shared),
    send: (target, key) =>
      call(`/api/threads/${target.id}/${path}`, key, {
        method: 'POST',
        json: { tool_call_id: target.ref, ...WAITS[kind].answer },
      }),
    async unchanged(target) {
      expect((await view(target.id, owner())).waiting_for[0]?.tool_call_id).toBe(target.ref);
    },
    async settle(target) {
      await until(
        () => view(target.id, owner()),
        (thread) => thread.status !== 'running' && (thread.waiting_for.length > 0 || thread.status === 'idle'),
      );
    },
  };
}

// ---- deferred subagents: each boot takes one request, so each thread defers three --------------

const deferred = new Map<boolean, Target[]>();

/** The deferred request to send to now; a new thread defers three when none is left. */
async function deferredRequest(shared: boolean): Promise<Target> {
  const requests = deferred.get(shared) ?? [];
  deferred.set(shared, requests);
  if (requests.length === 0) {
    const child = { name: 'token_helper', arguments: { message: directive([{ text: 'child done' }]) } };
    const script = directive([{ toolCalls: [child, child, child] }, { text: 'asked the user' }]);
    const id = await startThread(owner(), { agent: 'delegator', shared, messages: [{ content: script }] });
    // The turn ends once the model was told of all three.
    const refs = await until(
      async () => {
        const log = await (await call(`/api/threads/${id}/messages?limit=100`, owner())).text();
        return new Set([...log.matchAll(/variables\/([0-9a-f-]{36})/g)].map((match) => match[1] as string));
      },
      (found) => found.size === 3,
    );
    requests.push(...[...refs].map((ref) => ({ id, ref })));
  }
  return requests[0] as Target;
}

// ---- the routes ---------------------------------------------------------------------------------

const ROUTES: Route[] = [
  {
    name: 'GET /api/threads/:id',
    action: 'read',
    ok: 200,
    target: fixed,
    send: (t, key) => call(`/api/threads/${t.id}`, key),
  },
  {
    name: 'GET /api/threads/:id/messages',
    action: 'read',
    ok: 200,
    target: fixed,
    send: (t, key) => call(`/api/threads/${t.id}/messages`, key),
  },
  {
    name: 'GET /api/threads/:id/files/notes.txt',
    action: 'read',
    ok: 200,
    target: fixed,
    send: (t, key) => call(`/api/threads/${t.id}/files/notes.txt`, key),
  },
  {
    name: 'GET /api/threads/:id/stream?token= (WebSocket)',
    action: 'read',
    ok: 101,
    target: fixed,
    async send(t, key) {
      const response = await call(`/api/threads/${t.id}/stream?token=${key}`, null, {
        headers: { upgrade: 'websocket' },
      });
      response.webSocket?.accept();
      response.webSocket?.close(1000, 'seen');
      return response;
    },
  },
  {
    name: 'GET /api/threads/:id/events?token= (SSE)',
    action: 'read',
    ok: 200,
    target: fixed,
    async send(t, key) {
      const response = await call(`/api/threads/${t.id}/events?token=${key}`, null);
      if (response.status === 200) await response.body?.cancel();
      return response;
    },
  },
  {
    name: 'GET /api/threads/:id/variables/:requestId',
    action: 'read',
    ok: 200,
    target: deferredRequest,
    send: (t, key) => call(`/api/threads/${t.id}/variables/${t.ref}`, key),
  },
  {
    name: 'POST /api/threads/:id/messages',
    action: 'write',
    ok: 202,
    target: fixed,
    send: (t, key, who) =>
      call(`/api/threads/${t.id}/messages`, key, { method: 'POST', json: { content: `hi from ${who}` } }),
    async unchanged(t, before) {
      expect((await view(t.id, owner())).message_count).toBe(before.message_count);
    },
    async settle(t, before) {
      await until(
        () => view(t.id, owner()),
        (thread) => thread.status === 'idle' && thread.message_count === before.message_count + 2,
      );
    },
  },
  {
    name: 'POST /api/threads/:id/stop',
    action: 'write',
    ok: 200,
    target: fixed,
    send: (t, key) => call(`/api/threads/${t.id}/stop`, key, { method: 'POST' }),
  },
  {
    name: 'PUT /api/threads/:id/files/<path>',
    action: 'write',
    ok: 201,
    target: fixed,
    send: (t, key, who) =>
      call(`/api/threads/${t.id}/files/from-${who.replace(' ', '-')}.txt`, key, {
        method: 'PUT',
        body: `by ${who}`,
        headers: { 'content-length': String(`by ${who}`.length) },
      }),
    async unchanged(t, _before, who) {
      const file = await call(`/api/threads/${t.id}/files/from-${who.replace(' ', '-')}.txt`, owner());
      expect(file.status).toBe(404);
    },
  },
  {
    name: 'POST /api/threads/:id/variables/:requestId',
    action: 'write',
    ok: 200,
    target: deferredRequest,
    send: (t, key) =>
      call(`/api/threads/${t.id}/variables/${t.ref}`, key, {
        method: 'POST',
        json: { variables: { region: 'eu', API_TOKEN: 'tok-123456' } },
      }),
    async unchanged(t) {
      expect((await call(`/api/threads/${t.id}/variables/${t.ref}`, owner())).status).toBe(200);
    },
    async settle(t) {
      // Booted: the request is gone, and the next one is sent to.
      expect((await call(`/api/threads/${t.id}/variables/${t.ref}`, owner())).status).toBe(404);
      for (const requests of deferred.values()) if (requests[0]?.ref === t.ref) requests.shift();
    },
  },
  {
    // No call of the thread waits for an MCP server: 409 `not_waiting` is as far as a request gets
    // once the rule lets it through.
    name: 'POST /api/threads/:id/mcp-authorizations',
    action: 'write',
    ok: 409,
    target: fixed,
    send: (t, key) =>
      call(`/api/threads/${t.id}/mcp-authorizations`, key, { method: 'POST', json: { server: 'docs' } }),
  },
  answerRoute('POST /api/threads/:id/answers', 'question', 'answers'),
  answerRoute('POST /api/threads/:id/tool-results', 'client_tool', 'tool-results'),
  answerRoute('POST /api/threads/:id/secrets', 'secret', 'secrets'),
  answerRoute('POST /api/threads/:id/approvals', 'approval', 'approvals'),
  {
    name: 'DELETE /api/threads/:id',
    action: 'delete',
    ok: 204,
    // A thread of its own for each request: a delete that is let through leaves nothing to refuse.
    target: async (shared) => ({ id: await startThread(owner(), { agent: 'general', shared }) }),
    send: (t, key) => call(`/api/threads/${t.id}`, key, { method: 'DELETE' }),
    async unchanged(t) {
      expect((await view(t.id, owner())).id).toBe(t.id);
    },
  },
];

/** A row as the tables write it: A's five columns, a bar, B's four. */
function row(cells: string[]): string {
  return [...cells.slice(0, 5), '|', ...cells.slice(5)].join(' ');
}

const CASES = ROUTES.flatMap((route) =>
  (['private', 'shared'] as const).map((kind) => ({
    route,
    kind,
    expected: (kind === 'shared' ? SHARED : PRIVATE)[route.action],
  })),
);

/** Sends one route to the thread as each principal in turn; the outcomes, as a row of the table. */
async function outcomesOf(route: Route, shared: boolean): Promise<string[]> {
  const outcomes: string[] = [];
  let unknownBody: string | null = null;
  for (const who of WHO) {
    const target = await route.target(shared);
    const before = await view(target.id, owner());
    const response = await route.send(target, world.keys[who], who);
    const outcome = response.status === route.ok ? 'ok' : String(response.status);
    outcomes.push(outcome);
    if (outcome === '404') {
      // IDN-9: the answer for a thread one may not see is the answer for an id nobody used.
      unknownBody ??= await hiddenBody(await route.send({ ...target, id: UNKNOWN }, owner(), who), UNKNOWN);
      expect(await hiddenBody(response, target.id), `${who}: ${route.name}`).toBe(unknownBody);
    } else if (outcome === '403') {
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    } else if (response.status !== 101) {
      await response.body?.cancel();
    }
    if (outcome === 'ok') await route.settle?.(target, before);
    else await route.unchanged?.(target, before, who);
  }
  return outcomes;
}

describe('IDN-1, IDN-4: every thread route as each role of two tenants', () => {
  for (const { route, kind, expected } of CASES) {
    it(`IDN-1 IDN-4: ${route.name} on the ${kind} thread`, { timeout: 120_000 }, async () => {
      const outcomes = await outcomesOf(route, kind === 'shared');
      expect(row(outcomes)).toBe(expected.trim().split(/\s+/).join(' '));
    });
  }
});
