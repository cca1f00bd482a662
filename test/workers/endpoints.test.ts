/**
 * Thread endpoints through HTTP (EP-1 to EP-12), served by the Worker under test from
 * test/workers/endpoints-app.ts: the specification's example, routing beneath a thread, the same
 * sign-in and thread access as every thread route, failures that leave the thread working, the
 * thread's rules and the egress policy inside a handler, the OpenAPI document, and endpoints the
 * runtime's own routes would shadow refused at startup. The route table's rules one by one are in
 * test/node/engine/endpoints/route-table.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, DefinitionError, defineThreadEndpoint } from '../../src/index.js';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { CREDENTIAL_HEADERS, OVERSIZED_ENDPOINT_BODIES, UNROUTABLE_ENDPOINT_PATHS } from '../support/hostile-corpus.js';
import { allFrames } from '../support/socket.js';
import { ADMIN_KEY, call } from '../support/worker-calls.js';

const TOKEN = 'ep-secret-token-7731';
let id: string;

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

async function issueKey(tenant: string, role: string): Promise<string> {
  const response = await call('/api/keys', ADMIN_KEY, { method: 'POST', json: { tenant, role, name: role } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

beforeAll(async () => {
  id = await createThread({
    agent: 'ep_agent',
    variables: { EP_TOKEN: TOKEN },
    messages: [{ role: 'user', content: directive([{ text: 'noted' }]) }],
  });
  await settled(id);
});

describe("the specification's endpoint, beneath its thread", () => {
  it("EP-1, EP-2, EP-8: the example answers with the thread's own state, at rest", async () => {
    const response = await api(`/api/threads/${id}/summary`);
    expect(response.status).toBe(200);
    // getMessages({ limit }) resolves { messages, total }, as the specification's example reads it.
    expect(await json(response)).toEqual({ threadId: id, messageCount: 2, returned: 2, execution: null, params: {} });
  });

  it("EP-1: the example application's summary endpoint shows the thread at a glance", async () => {
    const put = await api(`/api/threads/${id}/files/reports/q3.txt`, {
      method: 'PUT',
      body: 'numbers',
      headers: { 'content-type': 'text/plain', 'content-length': '7' },
    });
    expect(put.status).toBe(201);
    const response = await api(`/api/threads/${id}/example/summary`);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      id,
      agent: 'ep_agent',
      lastMessage: { role: 'assistant', content: expect.any(String) },
    });
    expect(body.messageCount).toBeGreaterThanOrEqual(2);
    expect(body.files).toContain('/reports/q3.txt');
  });

  it('EP-1, EP-11, EP-12: a POST with a checked JSON body changes the thread, and its event reaches the stream', async () => {
    const first = await api(`/api/threads/${id}/notes`, { method: 'POST', json: { text: 'buy milk' } });
    expect(first.status).toBe(201);
    expect(await json(first)).toEqual({ id: '1', text: 'buy milk' });
    expect(await json(await api(`/api/threads/${id}/notes`))).toEqual({ notes: [{ id: '1', text: 'buy milk' }] });
    const frames = await allFrames(id);
    expect(frames).toContainEqual(
      expect.objectContaining({ type: 'event', event: 'note_added', data: { id: '1', text: 'buy milk' } }),
    );
    // The body schema is checked before the handler runs: nothing is stored.
    const bad = await api(`/api/threads/${id}/notes`, { method: 'POST', json: { text: 7 } });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { code: 'invalid_request' } });
    const notJson = await api(`/api/threads/${id}/notes`, { method: 'POST', body: '{"text":' });
    expect(await json(notJson)).toMatchObject({ error: { code: 'invalid_json' } });
    expect(await json(await api(`/api/threads/${id}/notes`))).toEqual({ notes: [{ id: '1', text: 'buy milk' }] });
  });

  it('EP-4, EP-5, EP-6: [id] and [*] params, a static route before them, index as its folder', async () => {
    await api(`/api/threads/${id}/notes`, { method: 'POST', json: { text: 'call home' } });
    expect(await json(await api(`/api/threads/${id}/notes/2`))).toEqual({ id: '2', text: 'call home' });
    expect(await json(await api(`/api/threads/${id}/notes/recent`))).toEqual({
      recent: { id: '2', text: 'call home' },
    });
    expect(await json(await api(`/api/threads/${id}/notes/2/history/all`))).toEqual({ rest: '2/history/all' });
    expect(await json(await api(`/api/threads/${id}/notes/`))).toMatchObject({ notes: expect.any(Array) });
    const missing = await api(`/api/threads/${id}/notes/99`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ missing: '99' });
  });

  it("EP-3: method suffixes in any case; a method without an endpoint is the API's 404", async () => {
    const put = await api(`/api/threads/${id}/echo`, { method: 'PUT', body: 'hello' });
    expect(await json(put)).toEqual({ method: 'PUT', body: 'hello', params: {}, credentials: [] });
    expect(await json(await api(`/api/threads/${id}/echo`, { method: 'DELETE' }))).toEqual({ method: 'DELETE' });
    // HEAD is answered by the GET endpoint, without a body.
    const head = await api(`/api/threads/${id}/summary`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const get = await api(`/api/threads/${id}/echo`);
    expect(get.status).toBe(404);
    expect(await json(get)).toMatchObject({ error: { code: 'not_found' } });
    const unknown = await api(`/api/threads/${id}/no-such-endpoint`);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: { code: 'not_found' } });
  });

  it("EP-3, EP-6: paths no endpoint answers are the API's 404, whatever their spelling (hostile corpus)", async () => {
    for (const path of UNROUTABLE_ENDPOINT_PATHS) {
      const response = await api(`/api/threads/${id}${path}`);
      expect(response.status, path).toBe(404);
      expect(await json(response), path).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('EP-12: a query schema is checked before the handler runs', async () => {
    expect(await json(await api(`/api/threads/${id}/search?q=milk`))).toEqual({ q: 'milk' });
    const refused = await api(`/api/threads/${id}/search`);
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ error: { code: 'invalid_request' } });
  });
});

describe('who may call an endpoint', () => {
  it('EP-10: no key 401; a thread not seen 404; a viewer reads but may not POST (403)', async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const member = await issueKey(`ep-a-${suffix}`, 'member');
    const viewer = await issueKey(`ep-a-${suffix}`, 'viewer');
    const stranger = await issueKey(`ep-b-${suffix}`, 'admin');
    const created = await call('/api/threads', member, { method: 'POST', json: { agent: 'ep_agent', shared: true } });
    const shared = ((await created.json()) as { id: string }).id;

    expect((await call(`/api/threads/${shared}/summary`, null)).status).toBe(401);
    const hidden = await call(`/api/threads/${shared}/notes`, stranger, { method: 'POST', json: { text: 'x' } });
    expect(hidden.status).toBe(404);
    expect(await json(hidden)).toMatchObject({ error: { code: 'thread_not_found' } });
    expect((await call(`/api/threads/${crypto.randomUUID()}/summary`, member)).status).toBe(404);
    expect((await call('/api/threads/not-a-uuid/summary', member)).status).toBe(404);

    expect((await call(`/api/threads/${shared}/summary`, viewer)).status).toBe(200);
    const refused = await call(`/api/threads/${shared}/notes`, viewer, { method: 'POST', json: { text: 'x' } });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ error: { code: 'forbidden' } });
    // Refused, nothing changed.
    expect(await json(await call(`/api/threads/${shared}/notes`, member))).toEqual({ notes: [] });
  });

  it("EP-10: the caller's credential never reaches the handler (hostile corpus)", async () => {
    const response = await api(`/api/threads/${id}/echo`, {
      method: 'PUT',
      body: 'x',
      headers: { cookie: 'session=caller-cookie' },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ credentials: [] });
    expect(CREDENTIAL_HEADERS).toEqual(expect.arrayContaining(['authorization', 'cookie']));
  });

  it('EP-10: a body over 1 MiB is refused 413 before the handler runs, declared or streamed (hostile corpus)', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 1) }));
    for (const { label, declared } of OVERSIZED_ENDPOINT_BODIES) {
      const body = declared
        ? bytes
        : new ReadableStream<Uint8Array>({
            start(controller) {
              for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.slice(at, at + 65_536));
              controller.close();
            },
          });
      const response = await api(`/api/threads/${id}/notes`, { method: 'POST', body });
      expect(response.status, label).toBe(413);
      expect(await json(response), label).toMatchObject({ error: { code: 'body_too_large' } });
    }
    // Refused, nothing changed: no note that long was added.
    const { notes } = (await json(await api(`/api/threads/${id}/notes`))) as { notes: { text: string }[] };
    expect(notes.every((note) => note.text.length < 100)).toBe(true);
  });
});

describe('failures, and the rules inside a handler', () => {
  it('EP-9: a handler that throws answers 500 endpoint_failed, scrubbed; the thread goes on working', async () => {
    const response = await api(`/api/threads/${id}/explode`, { method: 'POST' });
    expect(response.status).toBe(500);
    const body = await json(response);
    expect(body).toEqual({
      error: { code: 'endpoint_failed', message: 'endpoint explode.post failed: the service refused token [secret]' },
    });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
    // The thread is unharmed: its endpoints and its turns work.
    expect((await api(`/api/threads/${id}/summary`)).status).toBe(200);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ text: 'still here' }]) },
    });
    expect((await settled(id)).at(-1)?.content).toBe('still here');
  });

  it('EP-9: a handler that returns something other than a Response answers 500 saying so', async () => {
    const response = await api(`/api/threads/${id}/wrong-answer`);
    expect(response.status).toBe(500);
    expect(await json(response)).toEqual({
      error: {
        code: 'endpoint_failed',
        message: 'endpoint wrong-answer returned an object; a thread endpoint must return a Response',
      },
    });
  });

  it("EP-8: the thread's rules gate the handler's file writes (a denied one stores nothing) and it starts no child thread", async () => {
    const denied = await api(`/api/threads/${id}/files-write`, {
      method: 'POST',
      json: { path: '/private/plan.txt', text: 'secret plan' },
    });
    expect(denied.status).toBe(500);
    expect(await json(denied)).toMatchObject({
      error: { code: 'endpoint_failed', message: expect.stringContaining('Denied') },
    });
    expect((await api(`/api/threads/${id}/files/private/plan.txt`)).status).toBe(404);
    const allowed = await api(`/api/threads/${id}/files-write`, {
      method: 'POST',
      json: { path: '/public/plan.txt', text: 'open plan' },
    });
    expect(allowed.status).toBe(201);
    expect(await (await api(`/api/threads/${id}/files/public/plan.txt`)).text()).toBe('open plan');
    // No child thread is started from an endpoint.
    const spawn = await api(`/api/threads/${id}/spawn`, { method: 'POST' });
    expect(spawn.status).toBe(500);
    expect(await json(spawn)).toMatchObject({ error: { code: 'endpoint_failed' } });
    expect(((await json(await api(`/api/threads/${id}`))) as { children: unknown[] }).children).toEqual([]);
  });

  it('EP-8: once a handler has answered, work it left running cannot change the thread', async () => {
    expect((await api(`/api/threads/${id}/late`, { method: 'POST' })).status).toBe(202);
    const result = await until(
      async () => json(await api(`/api/threads/${id}/late-result`)),
      (body) => body.outcome !== null,
    );
    expect(result).toEqual({ outcome: expect.stringContaining('has ended (the endpoint has answered)'), value: null });
  });

  it('EP-8: the global fetch inside a handler passes the egress policy', async () => {
    const response = await api(`/api/threads/${id}/fetch-inside`);
    expect(response.status).toBe(500);
    expect(await json(response)).toMatchObject({
      error: { code: 'endpoint_failed', message: expect.stringContaining('169.254.169.254') },
    });
  });
});

describe("endpoints and the runtime's own routes", () => {
  const handler = defineThreadEndpoint(() => new Response('never'));

  it('EP-7: an endpoint a built-in thread route would answer is refused at startup, naming both', () => {
    for (const [key, builtin] of [
      ['messages', 'GET /api/threads/:id/messages'],
      ['messages.POST', 'POST /api/threads/:id/messages'],
      ['index', 'GET /api/threads/:id'],
      ['index.delete', 'DELETE /api/threads/:id'],
      ['files/readme', 'GET /api/threads/:id/files/*'],
      ['variables/[request]', 'GET /api/threads/:id/variables/:requestId'],
      ['stop.post', 'POST /api/threads/:id/stop'],
    ] as const) {
      const start = () => createRuntime({ endpoints: { [key]: handler } });
      expect(start, key).toThrow(DefinitionError);
      expect(start, key).toThrow(`endpoints["${key}"]`);
      expect(start, key).toThrow(`the runtime's route ${builtin}`);
    }
    // Beside the built-ins, not on them: a [name] at the top, another method, a catch-all.
    expect(() =>
      createRuntime({ endpoints: { '[name]': handler, 'stop.get': handler, 'docs/[*]': handler } }),
    ).not.toThrow();
  });

  it('EP-12: every endpoint is an operation of /openapi.json, with its schemas when it gives them', async () => {
    const doc = (await (await api('/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; parameters?: unknown[] }>>;
    };
    expect(doc.paths['/api/threads/{threadId}/summary']?.get?.operationId).toBe('threadEndpoint_summary_get');
    expect(doc.paths['/api/threads/{threadId}/notes/{id}']?.get?.operationId).toBe('threadEndpoint_notes_id_get');
    expect(doc.paths['/api/threads/{threadId}/notes/{*}']?.get?.operationId).toBe('threadEndpoint_notes_rest_get');
    expect(doc.paths['/api/threads/{threadId}/echo']?.put?.operationId).toBe('threadEndpoint_echo_put');
    const post = doc.paths['/api/threads/{threadId}/notes']?.post;
    expect(post?.operationId).toBe('threadEndpoint_notes_post');
    expect(JSON.stringify(post?.requestBody)).toContain('"text"');
  });
});
