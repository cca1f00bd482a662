/**
 * The locked filesystem tools and `todo` in workerd (LOCK-1, LOCK-2, LOCK-6, LOCK-7): a scripted model
 * calls them on a thread of agent `fs_tools` driven over HTTP; files are checked by downloading them,
 * frames over the thread's WebSocket, and sidecars in R2 before and after the thread is deleted.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

const tools = (log: Message[]) => log.filter((message) => message.role === 'tool');

async function upload(id: string, path: string, body: string): Promise<void> {
  const bytes = new TextEncoder().encode(body);
  const response = await api(`/api/threads/${id}/files/${path}`, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': 'text/plain', 'content-length': String(bytes.byteLength) },
  });
  expect(response.status).toBe(201);
}

async function download(id: string, path: string): Promise<string | null> {
  const response = await api(`/api/threads/${id}/files/${path}`);
  return response.status === 200 ? response.text() : null;
}

async function r2Keys(id: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `threads/${id}/` })).objects.map((object) => object.key).sort();
}

describe('locked filesystem tools over HTTP', () => {
  it('LOCK-1, LOCK-7: write, read, edit, glob, grep and todo run on the thread; tool_started carries each ACP kind', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    const stream = await openStream(id);
    const script = directive([
      { toolCalls: [{ name: 'write', arguments: { path: 'notes/plan.md', content: 'one\r\ntwo\r\nthree\r\n' } }] },
      { toolCalls: [{ name: 'read', arguments: { path: '/notes/plan.md', offset: 6, limit: 1 } }] },
      {
        toolCalls: [
          { name: 'edit', arguments: { path: '/notes/plan.md', old_string: 'two\nthree', new_string: '2\n3' } },
        ],
      },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*.md' } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: '^[0-9]$', path: '/notes' } }] },
      {
        toolCalls: [
          {
            name: 'todo',
            arguments: {
              todos: [
                { content: 'Write the plan', status: 'completed' },
                { content: 'Review it', status: 'pending' },
              ],
            },
          },
        ],
      },
      { text: 'all done' },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    const log = await settled(id);
    expect(tools(log).map((message) => [message.name, message.tool_status, message.content])).toEqual([
      ['write', 'success', 'Created /notes/plan.md (17 bytes)'],
      ['read', 'success', '     2\ttwo\r\n[Lines 2-2 of 4, bytes 5-9 of 17 (limit 1 bytes); read on with offset 10.]'],
      ['edit', 'success', 'Edited /notes/plan.md: replaced 1 occurrence (11 bytes)'],
      ['glob', 'success', '/notes/plan.md'],
      ['grep', 'success', '/notes/plan.md:2:2\n/notes/plan.md:3:3'],
      ['todo', 'success', '[x] Write the plan\n[ ] Review it\n(1 of 2 completed)'],
    ]);
    // The edit kept the file's CRLF line endings although the model sent LF.
    expect(await download(id, 'notes/plan.md')).toBe('one\r\n2\r\n3\r\n');
    await stream.waitFor((frame) => frame.type === 'tool_started' && frame.name === 'todo');
    const started = stream.frames.flatMap((frame) => (frame.type === 'tool_started' ? [[frame.name, frame.kind]] : []));
    expect(started).toEqual([
      ['write', 'edit'],
      ['read', 'read'],
      ['edit', 'edit'],
      ['glob', 'search'],
      ['grep', 'search'],
      ['todo', 'think'],
    ]);
    stream.close();
  });

  it('LOCK-2: an edit with a non-unique old_string fails and the downloaded file is byte-identical', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    await upload(id, 'vars.txt', 'x = 1\r\ny = 1\r\n');
    const script = directive([
      { toolCalls: [{ name: 'edit', arguments: { path: 'vars.txt', old_string: '= 1', new_string: '= 2' } }] },
      {
        toolCalls: [
          { name: 'edit', arguments: { path: 'vars.txt', old_string: '= 1', new_string: '= 2', replace_all: true } },
        ],
      },
      { text: 'done' },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    const [refused, replaced] = tools(await settled(id));
    expect(refused?.tool_status).toBe('error');
    expect(refused?.content).toContain('old_string occurs 2 times in /vars.txt');
    expect(replaced?.content).toBe('Edited /vars.txt: replaced 2 occurrences (14 bytes)');
    expect(await download(id, 'vars.txt')).toBe('x = 2\r\ny = 2\r\n');
  });

  it('LOCK-1: read refuses a binary file and a missing one, with messages the model can act on', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    const put = await api(`/api/threads/${id}/files/logo.png`, {
      method: 'PUT',
      body: png,
      headers: { 'content-type': 'image/png', 'content-length': '8' },
    });
    expect(put.status).toBe(201);
    const script = directive([
      { toolCalls: [{ name: 'read', arguments: { path: 'logo.png' } }] },
      { toolCalls: [{ name: 'read', arguments: { path: 'missing.txt' } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: '(' } }] },
      { text: 'done' },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    expect(tools(await settled(id)).map((message) => message.content)).toEqual([
      'Error: /logo.png is a binary file (8 bytes, image/png); it cannot be shown as text',
      'Error: File not found: /missing.txt; list the files with glob (pattern "**/*") to find the right path',
      expect.stringMatching(/^Error: invalid regular expression "\(": /),
    ]);
  });
});

describe('truncation sidecars over HTTP', () => {
  it('LOCK-6: over 200 matches, grep shows 200 and a sidecar that read pages, downloads whole and goes with the thread', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    const lines = Array.from({ length: 250 }, (_, index) => `match ${index + 1} ünïcödé`);
    await upload(id, 'log.txt', lines.join('\n'));
    const sidecar = '/.tool-output/grep-call_grep_big.txt';
    const matches = lines.map((line, index) => `/log.txt:${index + 1}:${line}`);
    // BYTES-1: the byte where match 201 starts in the sidecar.
    const offset = new TextEncoder().encode(`${matches.slice(0, 200).join('\n')}\n`).byteLength;
    const script = directive([
      { toolCalls: [{ name: 'grep', id: 'call_grep_big', arguments: { pattern: 'match' } }] },
      { toolCalls: [{ name: 'read', arguments: { path: sidecar, offset } }] },
      { text: 'done' },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    const [grep, read] = tools(await settled(id));
    expect(grep?.content).toBe(
      `${matches.slice(0, 200).join('\n')}\n[Output truncated: showing the first 200 of 250 entries. The full output is in ${sidecar}; page through it with read (offset, limit).]`,
    );
    expect(grep?.envelope).toMatchObject({
      type: 'output',
      data: { head: matches.slice(0, 200).join('\n'), truncated: true, output_path: sidecar },
      metadata: { truncated: true, output_path: sidecar },
    });
    expect(read?.content).toBe(
      matches
        .slice(200)
        .map((match, index) => `${String(201 + index).padStart(6)}\t${match}`)
        .join('\n'),
    );
    expect(await download(id, sidecar.slice(1))).toBe(matches.join('\n'));

    expect(await r2Keys(id)).toEqual([`threads/${id}/.tool-output/grep-call_grep_big.txt`, `threads/${id}/log.txt`]);
    expect((await api(`/api/threads/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await r2Keys(id)).toEqual([]);
  });

  it('LOCK-6: output over 200 KB is cut at whole characters and the sidecar holds every byte', async () => {
    const id = await createThread({ agent: 'fs_tools' });
    // 120 matching lines of about 2.6 KB each: 120 entries (under 200) but over 200 KB.
    const lines = Array.from({ length: 120 }, (_, index) => `hit ${index} ${'😀€'.repeat(370)}`);
    await upload(id, 'wide.txt', lines.join('\n'));
    const script = directive([
      { toolCalls: [{ name: 'grep', id: 'call_wide', arguments: { pattern: 'hit' } }] },
      { text: 'done' },
    ]);
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    const [grep] = tools(await settled(id));
    const full = lines.map((line, index) => `/wide.txt:${index + 1}:${line}`).join('\n');
    expect(grep?.envelope?.metadata).toMatchObject({
      truncated: true,
      output_path: '/.tool-output/grep-call_wide.txt',
    });
    const head = (grep?.envelope as { data: { head: string } } | undefined)?.data.head ?? '';
    const headBytes = new TextEncoder().encode(head).byteLength;
    expect(headBytes).toBeLessThanOrEqual(200 * 1024);
    expect(headBytes).toBeGreaterThan(200 * 1024 - 4);
    expect(full.startsWith(head)).toBe(true);
    expect(grep?.content).toContain('[Output truncated: showing the first');
    expect(await download(id, '.tool-output/grep-call_wide.txt')).toBe(full);
  });
});
