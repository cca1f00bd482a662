/**
 * The tool contract over HTTP in workerd: the envelope's `data` (ENV-1), `read` by byte ranges
 * (BYTES-1), and the lifetime of truncation sidecars (SIDE-1), driven by a scripted model on threads
 * of the test Worker. Time is moved for the sidecars by faking `Date` in this isolate (the Durable
 * Objects of the Worker under test run in it) and running the thread's alarm with the pool's helper.
 */

import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, createThread, messages, settled, thread } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { READ_RANGE_FILE, SIDECAR_SPELLINGS } from '../support/hostile-corpus.js';
import { outsideData } from '../support/outside-data.js';
import { openStream } from '../support/socket.js';

const DAY = 24 * 60 * 60 * 1000;
const tools = (log: Message[]) => log.filter((message) => message.role === 'tool');
const stubFor = (id: string) => env.THREADS.get(env.THREADS.idFromName(id));

async function upload(id: string, path: string, body: string): Promise<void> {
  const bytes = new TextEncoder().encode(body);
  const response = await api(`/api/threads/${id}/files/${path}`, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': 'text/plain', 'content-length': String(bytes.byteLength) },
  });
  expect(response.status).toBe(201);
}

async function r2Keys(id: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `threads/${id}/` })).objects.map((object) => object.key).sort();
}

/** Runs one scripted turn and returns its tool messages. */
async function turn(id: string, steps: Parameters<typeof directive>[0]): Promise<Message[]> {
  const before = tools(await messages(id)).length;
  await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: directive(steps) } });
  return tools(await settled(id)).slice(before);
}

/** Bytes the thread's files take, as GET /api/threads/:id reports them. */
async function storedBytes(id: string): Promise<number> {
  return ((await thread(id)) as unknown as { storage: { bytes: number } }).storage.bytes;
}

/** A thread of `fs_tools` holding log.txt and the sidecar of a 250-match grep. */
async function threadWithSidecar(callId: string): Promise<{ id: string; sidecar: string }> {
  const id = await createThread({ agent: 'fs_tools' });
  await upload(id, 'log.txt', Array.from({ length: 250 }, (_, index) => `match ${index + 1}`).join('\n'));
  const [grep] = await turn(id, [
    { toolCalls: [{ name: 'grep', id: callId, arguments: { pattern: 'match' } }] },
    { text: 'done' },
  ]);
  const sidecar = grep?.envelope?.metadata.output_path as string;
  expect(sidecar).toBe(`/.tool-output/grep-${callId}.txt`);
  return { id, sidecar };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the envelope's data over HTTP", () => {
  it('ENV-1: a JSON result is a value in the stored envelope and the tool_result frame; the model reads the text', async () => {
    const id = await createThread({ agent: 'general' });
    const stream = await openStream(id);
    const text = '{"city": "Oslo", "temps": [3, 4]}';
    const [json, plain] = await turn(id, [
      { toolCalls: [{ name: 'echo', arguments: { text } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'just words' } }] },
      { text: 'ok' },
    ]);
    expect(json?.content).toBe(text);
    expect(json?.envelope).toMatchObject({ type: 'output', data: { city: 'Oslo', temps: [3, 4] } });
    expect(plain?.envelope).toMatchObject({ type: 'output', data: 'just words' });
    const frame = await stream.waitFor((f) => f.type === 'tool_result' && f.tool_call_id === json?.tool_call_id);
    expect((frame as { envelope?: unknown }).envelope).toMatchObject({ data: { city: 'Oslo', temps: [3, 4] } });
    stream.close();
  });

  it('ENV-1: a truncated result stores { head, truncated: true, output_path } as its data', async () => {
    const { id, sidecar } = await threadWithSidecar('call_env_cut');
    const [grep] = tools(await settled(id));
    const data = grep?.envelope?.type === 'output' ? (grep.envelope.data as Record<string, unknown>) : {};
    expect(Object.keys(data).sort()).toEqual(['head', 'output_path', 'truncated']);
    expect(data).toMatchObject({ truncated: true, output_path: sidecar });
    expect(String(data.head).split('\n')).toHaveLength(200);
    expect(grep?.content?.startsWith(String(data.head))).toBe(true);
  });
});

describe('read by byte ranges over HTTP', () => {
  it('BYTES-1: offsets inside a character or a line show whole lines with their numbers; the next offset is named', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    await upload(id, 'ranges.txt', READ_RANGE_FILE);
    const [inside, last, bounded, past] = await turn(id, [
      { toolCalls: [{ name: 'read', arguments: { path: '/ranges.txt', offset: 2 } }] },
      { toolCalls: [{ name: 'read', arguments: { path: '/ranges.txt', offset: 9, limit: 1 } }] },
      { toolCalls: [{ name: 'read', arguments: { path: '/ranges.txt', offset: 0, limit: 8 } }] },
      { toolCalls: [{ name: 'read', arguments: { path: '/ranges.txt', offset: 16 } }] },
      { text: 'done' },
    ]);
    expect(outsideData(inside?.content)).toBe('     1\ta😀b\n     2\t€x\n     3\tend');
    expect(outsideData(last?.content)).toBe(
      '     2\t€x\n[Lines 2-2 of 3, bytes 7-11 of 15 (limit 1 bytes); read on with offset 12.]',
    );
    expect(outsideData(bounded?.content)).toBe(
      '     1\ta😀b\n[Lines 1-1 of 3, bytes 0-6 of 15 (limit 8 bytes); read on with offset 7.]',
    );
    expect(past).toMatchObject({ tool_status: 'error' });
    expect(past?.content).toBe('Error: offset 16 is past the end of the file, which has 15 bytes');
  });
});

describe('the lifetime of truncation sidecars', () => {
  it('SIDE-1: the alarm removes a sidecar past its 7 days, frees its quota, and read says it expired, however it is spelled', async () => {
    const { id, sidecar } = await threadWithSidecar('call_side_old');
    const other = await threadWithSidecar('call_side_other');
    const stub = stubFor(id);
    const written = (await env.FILES.head(`threads/${id}${sidecar}`))?.uploaded.getTime() as number;
    // The thread's alarm is armed for the sidecar's due time.
    const alarm = await runInDurableObject(stub, (_: unknown, state: DurableObjectState) => state.storage.getAlarm());
    expect(alarm).toBe(written + 7 * DAY);
    // Before the retention has passed, the alarm keeps it.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await r2Keys(id)).toContain(`threads/${id}${sidecar}`);
    const held = await storedBytes(id);
    const history = async () => (await env.FILES.list({ prefix: `history/${id}/` })).objects.length;
    const kept = await history();

    vi.useFakeTimers({ toFake: ['Date'], now: written + 7 * DAY + 1000 });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    vi.useRealTimers();
    expect(await r2Keys(id)).toEqual([`threads/${id}/log.txt`]);
    // FORK-5: an expired sidecar is not copied into the file history on its way out.
    expect(await history()).toBe(kept);
    const sidecarBytes = (await env.FILES.head(`threads/${other.id}${other.sidecar}`))?.size as number;
    expect(await storedBytes(id)).toBe(held - sidecarBytes);
    // No alarm is left for sidecars the thread no longer has.
    expect(await runInDurableObject(stub, (_: unknown, state: DurableObjectState) => state.storage.getAlarm())).toBe(
      null,
    );

    const reads = await turn(id, [
      ...SIDECAR_SPELLINGS.map(({ spell }) => ({ toolCalls: [{ name: 'read', arguments: { path: spell(sidecar) } }] })),
      { toolCalls: [{ name: 'read', arguments: { path: '/log.txt', offset: 0, limit: 8 } }] },
      { text: 'done' },
    ]);
    for (const [index, { refused }] of SIDECAR_SPELLINGS.entries()) {
      const read = reads[index];
      expect(read?.tool_status).toBe('error');
      expect(read?.content).toMatch(refused ?? new RegExp(`^Error: ${sidecar.replace(/\./g, '\\.')} has expired: `));
    }
    expect(outsideData(reads.at(-1)?.content).startsWith('     1\tmatch 1\n')).toBe(true);
    // Another thread's sidecar, not yet due in its own alarm, is untouched.
    expect(await r2Keys(other.id)).toContain(`threads/${other.id}${other.sidecar}`);
    expect((await api(`/api/threads/${other.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await r2Keys(other.id)).toEqual([]);
  });

  it('SIDE-1: a missing path under /.tool-output/ that no call wrote is not found, not expired', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    const [read] = await turn(id, [
      { toolCalls: [{ name: 'read', arguments: { path: '/.tool-output/grep-call_never.txt' } }] },
      { text: 'done' },
    ]);
    expect(read?.content).toContain('File not found: /.tool-output/grep-call_never.txt');
  });
});
