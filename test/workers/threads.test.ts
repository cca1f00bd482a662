import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

describe('thread routes', () => {
  it('THR-5: GET /api/agents lists agents with the JSON Schemas of their tools', async () => {
    const body = (await (await api('/api/agents')).json()) as {
      agents: { name: string; sideA: { prompt: { tools: { name: string; parameters: unknown }[] } } }[];
    };
    const general = body.agents.find((agent) => agent.name === 'general');
    const add = general?.sideA.prompt.tools.find((tool) => tool.name === 'add');
    expect(add?.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('THR-5: invalid bodies get a 400 that names the problem, and create nothing', async () => {
    const before = (await (await api('/api/threads?limit=200')).json()) as { threads: unknown[] };
    const cases: [unknown, string][] = [
      [{}, 'agent'],
      [{ agent: 'general', messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
      [{ agent: 'general', tags: 'not-a-list' }, 'tags'],
      [{ agent: 'general', surprise: true }, 'surprise'],
    ];
    for (const [json, field] of cases) {
      const response = await api('/api/threads', { method: 'POST', json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      const body = (await response.json()) as ErrorBody;
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain(field);
    }
    const malformed = await api('/api/threads', {
      method: 'POST',
      body: '{"agent": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).error.code).toBe('invalid_json');
    const after = (await (await api('/api/threads?limit=200')).json()) as { threads: unknown[] };
    expect(after.threads.length).toBe(before.threads.length);
  });

  it('THR-5: an unknown agent is refused with the list of known agents', async () => {
    const response = await api('/api/threads', { method: 'POST', json: { agent: 'nobody' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('unknown_agent');
    expect(body.error.message).toContain('general');
  });

  it('VAR-2: creating a thread without required variables fails with missing_variables listing every name', async () => {
    const response = await api('/api/threads', { method: 'POST', json: { agent: 'with_secrets' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('missing_variables');
    expect(body.error.details).toEqual({ missing: ['API_TOKEN', 'region'] });
    const partial = await api('/api/threads', {
      method: 'POST',
      json: { agent: 'with_secrets', variables: { region: 'eu' } },
    });
    expect(((await partial.json()) as ErrorBody).error.details).toEqual({ missing: ['API_TOKEN'] });
  });

  it('THR-1: threads are listed from the index, filtered by agent and tag, with cursor paging', async () => {
    const tag = `batch-${crypto.randomUUID()}`;
    const ids = [];
    for (let index = 0; index < 3; index++) ids.push(await createThread({ agent: 'general', tags: [tag] }));
    await createThread({ agent: 'limited', tags: [tag] });
    const first = (await (await api(`/api/threads?tag=${tag}&agent=general&limit=2`)).json()) as {
      threads: { id: string; agent: string; tags: string[] }[];
      next_cursor: string | null;
    };
    expect(first.threads).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = (await (
      await api(`/api/threads?tag=${tag}&agent=general&limit=2&cursor=${first.next_cursor}`)
    ).json()) as { threads: { id: string }[]; next_cursor: string | null };
    expect(second.threads).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    const listed = [...first.threads, ...second.threads].map((t) => t.id);
    expect(new Set(listed)).toEqual(new Set(ids));
    expect(first.threads.every((t) => t.agent === 'general' && t.tags.includes(tag))).toBe(true);
  });

  it('THR-1: the index follows the thread status', async () => {
    const tag = `status-${crypto.randomUUID()}`;
    const id = await createThread({ agent: 'general', tags: [tag], messages: [{ content: 'hello' }] });
    await settled(id);
    const idle = await (await api(`/api/threads?tag=${tag}&status=idle`)).json();
    expect((idle as { threads: { id: string }[] }).threads.map((t) => t.id)).toEqual([id]);
  });

  it('THR-1: a thread whose first turn pauses at once is listed as waiting: its row is written before any status', async () => {
    const tag = `first-${crypto.randomUUID()}`;
    const ask = directive([
      { toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Which colour?' }] } }] },
      { text: 'thanks' },
    ]);
    const id = await createThread({ agent: 'general', tags: [tag], messages: [{ content: ask }] });
    await until(
      () => thread(id),
      (view) => view.status === 'waiting',
    );
    const listed = await until(
      async () =>
        (await (await api(`/api/threads?tag=${tag}`)).json()) as { threads: { id: string; status: string }[] },
      (list) => list.threads[0]?.status === 'waiting',
    );
    expect(listed.threads.map((t) => [t.id, t.status])).toEqual([[id, 'waiting']]);
  });

  it('THR-5: DELETE removes the thread, its messages and its index row', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: 'hello' }] });
    await settled(id);
    expect((await api(`/api/threads/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/threads/${id}`)).status).toBe(404);
    expect((await api(`/api/threads/${id}/messages`)).status).toBe(404);
    const list = (await (await api('/api/threads?limit=200')).json()) as { threads: { id: string }[] };
    expect(list.threads.map((t) => t.id)).not.toContain(id);
  });

  it('THR-5: an id that is not a UUID is a 404, not a new thread', async () => {
    const response = await api('/api/threads/not-a-uuid');
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).error.code).toBe('thread_not_found');
  });

  it('THR-5: POST messages honours Idempotency-Key: the same key stores one message', async () => {
    const id = await createThread({ agent: 'general' });
    const send = () =>
      api(`/api/threads/${id}/messages`, {
        method: 'POST',
        json: { content: 'only once' },
        headers: { 'idempotency-key': 'key-1' },
      });
    const first = await send();
    expect(first.status).toBe(202);
    const firstBody = (await first.json()) as { messageId: string; replayed: boolean };
    await settled(id);
    const second = (await (await send()).json()) as { messageId: string; replayed: boolean };
    expect(second).toMatchObject({ messageId: firstBody.messageId, replayed: true });
    const log = await messages(id);
    expect(log.filter((m) => m.role === 'user' && m.content === 'only once')).toHaveLength(1);
  });

  it('THR-5: the same Idempotency-Key with another message is refused with 422 and nothing is stored', async () => {
    const id = await createThread({ agent: 'general' });
    const send = (content: string) =>
      api(`/api/threads/${id}/messages`, {
        method: 'POST',
        json: { content },
        headers: { 'idempotency-key': 'key-2' },
      });
    expect((await send('first message')).status).toBe(202);
    await settled(id);
    const reused = await send('a different message');
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as ErrorBody).error.code).toBe('idempotency_key_reused');
    const log = await messages(id);
    expect(log.some((m) => m.content === 'a different message')).toBe(false);
    expect(log.filter((m) => m.content === 'first message')).toHaveLength(1);
  });

  it('THR-5: a message without content is refused and nothing is stored', async () => {
    const id = await createThread({ agent: 'general' });
    const response = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: '' } });
    expect(response.status).toBe(400);
    expect((await thread(id)).message_count).toBe(0);
  });

  it('THR-5: the OpenAPI document describes the routes', async () => {
    const doc = (await (await api('/openapi.json', { key: null })).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/threads', '/api/threads/{id}/messages', '/api/threads/{id}/stream']),
    );
  });

  it('DEF-6: a side with maxSteps stops a runaway turn with an error', async () => {
    const call = { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
    const id = await createThread({ agent: 'limited', messages: [{ content: directive([call, call, call, call]) }] });
    const view = await settled(id).then(() => thread(id));
    expect(view.last_error).toContain('limit of 2 model steps');
    const log = await messages(id);
    expect(log.filter((m) => m.role === 'assistant')).toHaveLength(2);
  });
});
