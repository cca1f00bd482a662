/**
 * A thread's limits through the HTTP API on workerd (ATT-6, THR-8): the total size of its files,
 * whoever writes them, and the messages that may wait for its running turn. The test Worker's
 * limits are small (quota-app.ts: 4 MiB of files, 5 queued messages). Each refusal leaves nothing
 * behind: no file in R2, no byte counted, no message in the log.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import { INBOX_FLOODS, QUOTA_FILLERS } from '../support/hostile-corpus.js';
import { LIMITS } from './quota-app.js';

const MiB = 1024 * 1024;
const QUOTA = LIMITS.threadStorageBytes;

interface Storage {
  bytes: number;
  quota_bytes: number;
}

interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

async function storage(id: string): Promise<Storage> {
  return ((await (await api(`/api/threads/${id}`)).json()) as { storage: Storage }).storage;
}

async function upload(id: string, path: string, bytes: number): Promise<Response> {
  return api(`/api/threads/${id}/files${path}`, {
    method: 'PUT',
    body: new Uint8Array(bytes).fill(97),
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
  });
}

/** What R2 holds for the thread: path → size. */
async function stored(id: string): Promise<Record<string, number>> {
  const listed = await env.FILES.list({ prefix: `threads/${id}/` });
  return Object.fromEntries(listed.objects.map((object) => [object.key.slice(`threads/${id}`.length), object.size]));
}

/** A thread of agent `quota` whose model makes each step's calls, then says done. */
async function run(steps: { name: string; arguments: Record<string, unknown> }[][], id?: string): Promise<Message[]> {
  const content = directive([...steps.map((toolCalls) => ({ toolCalls })), { text: 'done' }]);
  const thread = id ?? (await createThread({ agent: 'quota' }));
  await api(`/api/threads/${thread}/messages`, { method: 'POST', json: { content } });
  const log = await settled(thread);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  return log;
}

const toolResults = (log: Message[]) => log.filter((message) => message.role === 'tool');

describe('thread storage quota', () => {
  it('ATT-6: an upload past the quota answers 413 storage_quota_exceeded and nothing of it is stored', async () => {
    const id = await createThread({ agent: 'quota' });
    expect(await storage(id)).toEqual({ bytes: 0, quota_bytes: QUOTA });
    expect((await upload(id, '/a.bin', 1.5 * MiB)).status).toBe(201);
    expect((await upload(id, '/b.bin', 1.5 * MiB)).status).toBe(201);
    const refused = await upload(id, '/c.bin', 1.5 * MiB);
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      code: 'storage_quota_exceeded',
      details: { bytes: 3 * MiB, quota_bytes: QUOTA },
    });
    expect(body.error.message).toContain(
      `/c.bin (${1.5 * MiB} bytes) does not fit in this thread's ${QUOTA} byte quota`,
    );
    const listing = (await (await api(`/api/threads/${id}/files/`)).json()) as { entries: { path: string }[] };
    expect(listing.entries.map((entry) => entry.path)).toEqual(['/a.bin', '/b.bin']);
    expect(await stored(id)).toEqual({ '/a.bin': 1.5 * MiB, '/b.bin': 1.5 * MiB });
    expect(await storage(id)).toEqual({ bytes: 3 * MiB, quota_bytes: QUOTA });
  });

  it('ATT-6: overwriting a file replaces its size; a file that fits exactly is taken', async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/a.bin', 3 * MiB)).status).toBe(201);
    expect((await upload(id, '/a.bin', 2 * MiB)).status).toBe(201);
    expect(await storage(id)).toMatchObject({ bytes: 2 * MiB });
    expect((await upload(id, '/b.bin', 2 * MiB)).status).toBe(201);
    expect(await storage(id)).toMatchObject({ bytes: QUOTA });
    expect((await upload(id, '/c.bin', 1)).status).toBe(413);
    // Growing a file past the quota is refused; shrinking one is not.
    expect((await upload(id, '/a.bin', 2 * MiB + 1)).status).toBe(413);
    expect((await upload(id, '/a.bin', MiB)).status).toBe(201);
    expect(await stored(id)).toEqual({ '/a.bin': MiB, '/b.bin': 2 * MiB });
    expect(await storage(id)).toMatchObject({ bytes: 3 * MiB });
  });

  it('ATT-6: a tool write past the quota fails with a clear error, nothing stored; deleting frees the space', async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/uploaded.bin', 3 * MiB)).status).toBe(201);
    const first = toolResults(
      await run([[{ name: 'write_bytes', arguments: { path: '/tool.bin', bytes: 2 * MiB } }]], id),
    );
    expect(first[0]).toMatchObject({ tool_status: 'error' });
    expect(first[0]?.content).toBe(
      `Error: storage quota exceeded: /tool.bin (${2 * MiB} bytes) does not fit in this thread's ${QUOTA} byte quota, of which ${3 * MiB} bytes are used; delete files to make room`,
    );
    expect(await stored(id)).toEqual({ '/uploaded.bin': 3 * MiB });
    expect(await storage(id)).toMatchObject({ bytes: 3 * MiB });

    const second = toolResults(
      await run(
        [
          [{ name: 'remove_file', arguments: { path: '/uploaded.bin' } }],
          [{ name: 'write_bytes', arguments: { path: '/tool.bin', bytes: 2 * MiB } }],
        ],
        id,
      ),
    );
    expect(second.slice(-2).map((message) => message.content)).toEqual([
      'removed',
      `wrote ${2 * MiB} bytes to /tool.bin`,
    ]);
    expect(await stored(id)).toEqual({ '/tool.bin': 2 * MiB });
    expect(await storage(id)).toMatchObject({ bytes: 2 * MiB });
  });

  it('ATT-6: every way a thread gains files counts against one quota', async () => {
    for (const filler of QUOTA_FILLERS) {
      const id = await createThread({ agent: 'quota' });
      // The filler stays under 1 MiB: the write tool's content travels in a JSON message body.
      expect((await upload(id, '/held.bin', 3.5 * MiB)).status, filler.label).toBe(201);
      const results = toolResults(await run([[{ name: filler.tool, arguments: filler.arguments(0.75 * MiB) }]], id));
      expect(results[0]?.tool_status, filler.label).toBe(filler.status);
      expect(results[0]?.content, filler.label).toContain(
        `does not fit in this thread's ${QUOTA} byte quota, of which ${3.5 * MiB} bytes are used`,
      );
      expect(Object.keys(await stored(id)), filler.label).toEqual(['/held.bin']);
      expect(await storage(id), filler.label).toMatchObject({ bytes: 3.5 * MiB });
    }
  });

  it('ATT-4, ATT-6: files handed to a child count against its quota; one file handed many times counts each time', async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/big.bin', 1.5 * MiB)).status).toBe(201);
    const child = directive([{ text: 'got them' }]);
    const results = toolResults(
      await run(
        [
          [{ name: 'quota_child', arguments: { message: child, files: ['/big.bin', '/big.bin', '/big.bin'] } }],
          [{ name: 'quota_child', arguments: { message: child, files: ['/big.bin', '/big.bin'] } }],
        ],
        id,
      ),
    );
    expect(results[0]?.tool_status).toBe('error');
    expect(results[0]?.content).toContain('storage quota exceeded');
    expect(results[1]).toMatchObject({ tool_status: 'success', content: expect.stringContaining('got them') });
    const children = ((await (await api(`/api/threads/${id}`)).json()) as { children: { id: string }[] }).children;
    // The refused child was never created; the other holds exactly the two copies.
    expect(children).toHaveLength(1);
    const childId = children[0]?.id as string;
    expect(await storage(childId)).toEqual({ bytes: 3 * MiB, quota_bytes: QUOTA });
    expect(Object.values(await stored(childId))).toEqual([1.5 * MiB, 1.5 * MiB]);
  });

  it("ATT-4, ATT-6: a child's files that do not fit its parent are not copied, and the parent's model is told", async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/held.bin', 2 * MiB)).status).toBe(201);
    const child = directive([
      { toolCalls: [{ name: 'attach_bytes', arguments: { name: 'out.bin', bytes: 3 * MiB } }] },
      { text: 'made it' },
    ]);
    const [result] = toolResults(await run([[{ name: 'quota_child', arguments: { message: child } }]], id));
    expect(result?.tool_status).toBe('success');
    expect(result?.content).toContain('made it');
    expect(result?.content).toContain(
      '[The files this subagent produced could not be copied to the parent thread: storage quota exceeded:',
    );
    expect(await stored(id)).toEqual({ '/held.bin': 2 * MiB });
    expect(await storage(id)).toMatchObject({ bytes: 2 * MiB });
  });

  it('ATT-6, THR-3: a write an evicted object never settled is settled from R2; a thread counted before files were is counted from its listing', async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/a.bin', MiB)).status).toBe(201);
    // A stub of an evicted object is broken: each step takes a new one.
    const stub = () => env.THREADS.get(env.THREADS.idFromName(id));
    // As an object evicted mid-write leaves it: the write recorded, R2 holding the new bytes.
    await env.FILES.put(`threads/${id}/b.bin`, new Uint8Array(2 * MiB));
    await runInDurableObject(stub(), (_instance, state) => {
      state.storage.sql.exec('INSERT INTO file_writes (path, size) VALUES (?, ?)', '/b.bin', 2 * MiB);
    });
    await evictDurableObject(stub());
    expect(await storage(id)).toMatchObject({ bytes: 3 * MiB });
    // As an older thread is found: files in R2, none counted.
    await runInDurableObject(stub(), (_instance, state) => {
      state.storage.sql.exec('DELETE FROM files');
      state.storage.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('files_uncounted', 'true')");
    });
    await evictDurableObject(stub());
    expect(await storage(id)).toMatchObject({ bytes: 3 * MiB });
    expect((await upload(id, '/c.bin', 1.5 * MiB)).status).toBe(413);
  });

  it('ATT-6, THR-3: the count survives eviction and the quota still holds', async () => {
    const id = await createThread({ agent: 'quota' });
    expect((await upload(id, '/a.bin', 3 * MiB)).status).toBe(201);
    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(id)));
    expect(await storage(id)).toEqual({ bytes: 3 * MiB, quota_bytes: QUOTA });
    expect((await upload(id, '/b.bin', 2 * MiB)).status).toBe(413);
    expect(await stored(id)).toEqual({ '/a.bin': 3 * MiB });
  });
});

describe('thread inbox bound', () => {
  const questions = [{ question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] }];

  /** A thread whose turn waits for an answer: every message posted now is queued. */
  async function waitingThread(): Promise<{ id: string; toolCallId: string }> {
    const id = await createThread({ agent: 'quota' });
    const ask = directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'answered' }]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: ask } });
    const view = await until(
      async () =>
        (await (await api(`/api/threads/${id}`)).json()) as {
          status: string;
          waiting_for: { tool_call_id: string }[];
        },
      (thread) => thread.status === 'waiting',
    );
    return { id, toolCallId: view.waiting_for[0]?.tool_call_id as string };
  }

  const post = (id: string, content: string, key?: string) =>
    api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content },
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });

  it('THR-8: past the bound a message answers 429 inbox_full with Retry-After; the log gets only the accepted ones', async () => {
    for (const flood of INBOX_FLOODS) {
      const { id, toolCallId } = await waitingThread();
      const before = await messages(id);
      const sent = Array.from({ length: flood.count }, (_, index) => `${flood.label} #${index}`);
      const answers = flood.concurrent
        ? await Promise.all(sent.map((content) => post(id, content)))
        : await sent.reduce<Promise<Response[]>>(
            async (done, content) => [...(await done), await post(id, content)],
            Promise.resolve([]),
          );
      const accepted = sent.filter((_, index) => answers[index]?.status === 202);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(accepted, flood.label).toHaveLength(LIMITS.inboxMessages);
      expect(refused, flood.label).toHaveLength(flood.count - LIMITS.inboxMessages);
      for (const answer of refused) {
        expect(answer.headers.get('retry-after'), flood.label).toBe('5');
        expect(((await answer.json()) as ErrorBody).error.code, flood.label).toBe('inbox_full');
      }
      // Nothing of a refused message is stored while the turn waits...
      expect(await messages(id), flood.label).toEqual(before);
      await api(`/api/threads/${id}/answers`, {
        method: 'POST',
        json: { tool_call_id: toolCallId, answers: [['red']] },
      });
      // ...and once the queue is delivered, the log holds each accepted message once, and no other.
      const users = (await settled(id)).filter((message) => message.role === 'user').map((message) => message.content);
      expect(users.slice(1).sort(), flood.label).toEqual([...accepted].sort());
    }
  });

  it('THR-8: a refused message leaves its Idempotency-Key unused: sent again once there is room, it is stored', async () => {
    const { id, toolCallId } = await waitingThread();
    for (let index = 0; index < LIMITS.inboxMessages; index++) expect((await post(id, `m${index}`)).status).toBe(202);
    expect((await post(id, 'late', 'key-late')).status).toBe(429);
    await api(`/api/threads/${id}/answers`, { method: 'POST', json: { tool_call_id: toolCallId, answers: [['red']] } });
    await settled(id);
    const again = await post(id, 'late', 'key-late');
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ replayed: false });
    const log = await settled(id);
    expect(log.filter((message) => message.content === 'late')).toHaveLength(1);
  });
});
