/**
 * The client (client/) running inside workerd, as a Worker that calls the API would run it: its
 * `fetch` is the Worker's own handler. The typed calls, ApiError, an upload and a download of
 * bytes, and a thread followed over the event-stream transport (fetch streaming and parsing in
 * workerd, no EventSource there) from its first frame to the end of a turn.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiError, createClient, type Frame } from '../../client/index.js';
import { ALICE } from '../support/api.js';
import { directive } from '../support/directive-script.js';

const worker = (exports as unknown as { default: Fetcher }).default;
const client = createClient({
  baseUrl: 'https://runtime.test',
  apiKey: ALICE,
  fetch: (input, init) => worker.fetch(new Request(input, init)),
});

const ANSWER = 'Frames reach a client in a Worker as they reach one in a browser.';

describe('the client in workerd', () => {
  it('THR-5: typed calls and ApiError work in a Worker', async () => {
    const { agents } = await client.agents.list();
    expect(agents.map((agent) => agent.name)).toContain('general');
    const created = await client.threads.create({ agent: 'general' });
    expect((await client.threads.get(created.id)).status).toBe('idle');
    await expect(client.threads.get(crypto.randomUUID())).rejects.toBeInstanceOf(ApiError);

    const bytes = new Uint8Array([1, 2, 3, 250]);
    expect(await client.files.put(created.id, '/in/worker.bin', bytes, 'application/octet-stream')).toMatchObject({
      path: '/in/worker.bin',
      size: 4,
    });
    const download = await client.files.get(created.id, '/in/worker.bin');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it("EP-1: the application's thread endpoints are called by path, with JSON or any body, errors as ApiError", async () => {
    const { id } = await client.threads.create({ agent: 'ep_agent' });
    expect(await client.endpoints.json(id, 'notes', { text: 'from the client' })).toEqual({
      id: '1',
      text: 'from the client',
    });
    expect(await client.endpoints.json(id, 'notes/1')).toEqual({ id: '1', text: 'from the client' });
    const put = await client.endpoints.call(id, 'echo', { method: 'PUT', body: 'raw' });
    expect(await put.json()).toMatchObject({ method: 'PUT', body: 'raw' });
    expect(await client.endpoints.json(id, 'search?q=milk')).toEqual({ q: 'milk' });
    await expect(client.endpoints.call(id, 'search')).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('THR-2: the event-stream transport follows a turn frame by frame', async () => {
    const { id } = await client.threads.create({ agent: 'general' });
    const stream = client.stream(id, { transport: 'sse' });
    const frames: Frame[] = [];
    const done = (async () => {
      for await (const frame of stream) {
        frames.push(frame);
        if (frame.type === 'status' && frame.status === 'idle') break;
      }
    })();
    await client.messages.post(id, { content: directive([{ text: ANSWER }]) });
    await done;
    expect(stream.state).toBe('closed');
    expect(frames.map((frame) => frame.seq)).toEqual(frames.map((_, index) => index + 1));
    const text = frames.flatMap((frame) => (frame.type === 'message_delta' ? [frame.delta] : [])).join('');
    expect(text).toBe(ANSWER);
    const { messages } = await client.messages.list(id);
    expect(messages.at(-1)?.content).toBe(ANSWER);
  });
});
