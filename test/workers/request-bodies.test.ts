/**
 * JSON request bodies through the HTTP API, in workerd (THR-5): a body nested deeper than any
 * request needs is refused with 400 `json_too_deep` on every route that takes JSON (and a JSON-RPC
 * parse error on `/mcp`), before it is validated, cloned into the thread or stored; the thread is
 * as it was. Bodies come from the hostile corpus (section request bodies).
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/contract/json-depth.js';
import { api, createThread, messages, settled, thread } from '../support/api.js';
import { deepJsonBodies } from '../support/hostile-corpus.js';

/** Every route that takes a JSON body, for a thread `id`. */
function jsonRoutes(id: string): string[] {
  return [
    '/api/threads',
    `/api/threads/${id}/messages`,
    `/api/threads/${id}/answers`,
    `/api/threads/${id}/approvals`,
    `/api/threads/${id}/tool-results`,
    `/api/threads/${id}/secrets`,
    `/api/threads/${id}/variables/00000000-0000-4000-8000-000000000000`,
  ];
}

async function post(path: string, body: string): Promise<Response> {
  return api(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
}

async function threadIds(): Promise<string[]> {
  const response = await api('/api/threads?limit=200');
  return ((await response.json()) as { threads: { id: string }[] }).threads.map((entry) => entry.id);
}

describe('JSON bodies nested too deeply (THR-5)', () => {
  it('THR-5: every JSON route answers 400 json_too_deep to every deep body of the corpus; nothing changes', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: 'hello' }] });
    const before = await settled(id);
    const threads = await threadIds();
    for (const route of jsonRoutes(id)) {
      for (const { label, body } of deepJsonBodies()) {
        const response = await post(route, body);
        expect(response.status, `${route}: ${label}`).toBe(400);
        const error = ((await response.json()) as { error: { code: string; message: string } }).error;
        expect(error.code, `${route}: ${label}`).toBe('json_too_deep');
        expect(error.message).toContain(`at most ${MAX_JSON_DEPTH} levels`);
      }
    }
    expect(await messages(id)).toEqual(before);
    expect((await thread(id)).status).toBe('idle');
    expect(await threadIds()).toEqual(threads);
  });

  it('THR-5: /mcp answers a JSON-RPC parse error (400) to every deep body; a sound request still works', async () => {
    for (const { label, body } of deepJsonBodies()) {
      const response = await post('/mcp', body);
      expect(response.status, label).toBe(400);
      expect(await response.json(), label).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: `Parse error: JSON nested deeper than ${MAX_JSON_DEPTH} levels` },
      });
    }
    const listed = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('"tools"');
  });

  it('THR-5: the limit counts nesting, not brackets: brackets inside strings and a body at the limit pass', async () => {
    const brackets = `${'['.repeat(100_000)}${'{'.repeat(100_000)}"\\"[`;
    const id = await createThread({ agent: 'general', messages: [{ content: brackets }] });
    expect((await settled(id))[0]?.content).toBe(brackets);
    // At the limit: an answer whose output nests exactly as deep as allowed reaches the thread (409:
    // nothing waits for it), one level more does not.
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const atLimit = await post(
      `/api/threads/${id}/tool-results`,
      `{"tool_call_id":"x","output":${nested(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(atLimit.status).toBe(409);
    const over = await post(
      `/api/threads/${id}/tool-results`,
      `{"tool_call_id":"x","output":${nested(MAX_JSON_DEPTH)}}`,
    );
    expect(over.status).toBe(400);
  });
});
