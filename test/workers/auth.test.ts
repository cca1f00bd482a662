import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ALICE, api, BOB, createThread } from '../support/api.js';
import { KEYS_AGAINST_AN_UNKEYED_WORKER } from '../support/hostile-corpus.js';
import worker from './worker.js';

describe('authentication and ownership', () => {
  it('THR-6: a request without a key is refused with 401 and a JSON error', async () => {
    const response = await api('/api/agents', { key: null });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthorized', message: 'missing API key: send "Authorization: Bearer <key>"' },
    });
  });

  it('THR-6: a wrong key is refused', async () => {
    const response = await api('/api/threads', { key: 'not-a-key' });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('IDN-9: a refused credential of any kind is never repeated in the answer', async () => {
    const marker = 'CANARY7f3a9c';
    const header = btoa(JSON.stringify({ alg: 'RS256', kid: marker })).replace(/=+$/, '');
    const credentials = [
      `plain-${marker}`,
      `sak_abcdefghij_${marker}${'x'.repeat(40)}`,
      `${header}.${btoa(JSON.stringify({ sub: marker })).replace(/=+$/, '')}.${marker}`,
      `${marker}:admin`,
      `${marker}${'y'.repeat(9000)}`,
    ];
    for (const credential of credentials) {
      const response = await api('/api/threads', { key: credential });
      expect(response.status, credential.slice(0, 40)).toBe(401);
      const text = `${[...response.headers].join('\n')}\n${await response.text()}`;
      expect(text).not.toContain(marker);
      expect(JSON.parse(text.slice(text.indexOf('{'))).error.code).toBe('unauthorized');
    }
  });

  it('THR-6: a thread is reachable only with the key that created it', async () => {
    const id = await createThread({ agent: 'general' }, ALICE);
    expect((await api(`/api/threads/${id}`, { key: ALICE })).status).toBe(200);
    for (const path of [`/api/threads/${id}`, `/api/threads/${id}/messages`, `/api/threads/${id}/files/`]) {
      const response = await api(path, { key: BOB });
      expect(response.status, path).toBe(404);
    }
    const post = await api(`/api/threads/${id}/messages`, { method: 'POST', key: BOB, json: { content: 'hi' } });
    expect(post.status).toBe(404);
    const list = (await (await api('/api/threads', { key: BOB })).json()) as { threads: { id: string }[] };
    expect(list.threads.map((t) => t.id)).not.toContain(id);
  });

  it('THR-6: the WebSocket accepts the key as a token query parameter and refuses without one', async () => {
    const id = await createThread({ agent: 'general' });
    const refused = await api(`/api/threads/${id}/stream`, { key: null, headers: { upgrade: 'websocket' } });
    expect(refused.status).toBe(401);
    const accepted = await api(`/api/threads/${id}/stream?token=${ALICE}`, {
      key: null,
      headers: { upgrade: 'websocket' },
    });
    expect(accepted.status).toBe(101);
    accepted.webSocket?.accept();
    accepted.webSocket?.close();
  });

  it('THR-6, ?token= is accepted only on the WebSocket upgrade of /api/threads/:id/stream', async () => {
    const id = await createThread({ agent: 'general' });
    const upload = await api(`/api/threads/${id}/files/stream`, { method: 'PUT', body: 'file named stream' });
    expect(upload.status).toBe(201);
    const websocket = { upgrade: 'websocket' };
    const refused: [string, HeadersInit][] = [
      [`/api/threads/${id}/files/stream?token=${ALICE}`, {}],
      [`/api/threads/${id}/files/stream?token=${ALICE}`, websocket],
      [`/api/threads/${id}/messages?token=${ALICE}`, {}],
      [`/api/threads/${id}/messages?token=${ALICE}`, websocket],
      [`/api/threads/${id}/stream/x?token=${ALICE}`, websocket],
      [`/api/threads/${id}/x/stream?token=${ALICE}`, websocket],
      [`/api/threads/stream?token=${ALICE}`, websocket],
      [`/api/threads/${id}/stream?token=${ALICE}`, {}],
      [`/api/agents?token=${ALICE}`, {}],
    ];
    for (const [path, headers] of refused) {
      const response = await api(path, { key: null, headers });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: 'unauthorized', message: 'missing API key: send "Authorization: Bearer <key>"' },
      });
    }
    const accepted = await api(`/api/threads/${id}/stream?token=${ALICE}`, { key: null, headers: websocket });
    expect(accepted.status).toBe(101);
    accepted.webSocket?.accept();
    accepted.webSocket?.close();
  });
});

describe('a Worker with no API_KEYS', () => {
  // The same Worker, given an env without keys: what a new local project or a fresh deploy sees.
  const unkeyed = { ...env, API_KEYS: '' };
  const handler = worker as { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => Promise<Response> };
  const call = (path: string, init: RequestInit = {}) =>
    handler.fetch(new Request(`https://runtime.test${path}`, init), unkeyed, createExecutionContext());

  it('THR-6: refuses every request with 503 and says where the key goes, locally and deployed', async () => {
    const before = (await (await api('/api/threads')).json()) as { threads: unknown[] };
    for (const key of [ALICE, BOB, ...KEYS_AGAINST_AN_UNKEYED_WORKER]) {
      const headers = new Headers({ 'content-type': 'application/json' });
      if (key) headers.set('authorization', `Bearer ${key}`);
      const body = JSON.stringify({ agent: 'general', messages: [{ content: 'hi' }] });
      const response = await call('/api/threads', { method: 'POST', headers, body });
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('auth_not_configured');
      // A local project keeps its key in .dev.vars; a deployed Worker gets it with wrangler secret put.
      expect(error.message).toMatch(/\.dev\.vars/);
      expect(error.message).toMatch(/API_KEYS=/);
      expect(error.message).toMatch(/wrangler secret put API_KEYS/);
    }
    // Nothing was created, and the Worker with keys still answers its users.
    const after = await api('/api/threads');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { threads: unknown[] }).threads).toHaveLength(before.threads.length);
  });
});
