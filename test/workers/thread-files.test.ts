/**
 * The specification's file, value, context and tool-invocation members of ThreadState (TS-20..TS-32)
 * as a tool a scripted model calls uses them, through HTTP in workerd over R2 and the thread's
 * Durable Object (thread-files-app.ts).
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { evictDurableObject } from '../support/evict.js';
import {
  HOSTILE_CONTEXT_KEYS,
  HOSTILE_FILE_METADATA,
  HOSTILE_MIME_TYPES,
  invalidPaths,
  SPEC_FILE_MEMBERS,
} from '../support/hostile-corpus.js';

type Call = { name: string; arguments?: Record<string, unknown> };
const fs = (args: Record<string, unknown>): Call => ({ name: 'fv_fs', arguments: args });

/** One turn of `calls` (one model step), then 'done'; resolves the turn's tool messages in order. */
async function turn(calls: Call[], id?: string): Promise<{ id: string; tools: Message[] }> {
  const content = directive([{ toolCalls: calls }, { text: 'done' }]);
  let thread = id;
  let before = 0;
  if (thread) {
    before = (await messages(thread)).length;
    const response = await api(`/api/threads/${thread}/messages`, { method: 'POST', json: { content } });
    expect(response.status).toBeLessThan(300);
  } else {
    thread = await createThread({ agent: 'fv_files', messages: [{ content }] });
  }
  const log = await until(
    () => messages(thread as string),
    (current) => current.length > before && current.at(-1)?.content === 'done',
  );
  return { id: thread, tools: log.slice(before).filter((message) => message.role === 'tool') };
}

const parsed = (message: Message | undefined) => JSON.parse(message?.content ?? 'null');

describe('TS-20..TS-27: the thread filesystem as the specification has it', () => {
  it('TS-20, TS-21, TS-23, TS-24: writeFile in both forms, readFile as an ArrayBuffer, statFile and readdirFile records', async () => {
    const { tools } = await turn([
      fs({ op: 'write', path: '/docs/a.md', text: 'alpha', mime: 'text/markdown', metadata: { source: 'spec' } }),
      fs({ op: 'write_options', path: '/docs/b.txt', text: 'beta' }),
      fs({ op: 'read', path: '/docs/a.md' }),
      fs({ op: 'stat', path: '/docs/a.md' }),
      fs({ op: 'stat', path: '/docs' }),
      fs({ op: 'stat', path: '/docs/none' }),
      fs({ op: 'readdir', path: '/' }),
      fs({ op: 'readdir', path: '/docs' }),
      fs({ op: 'read', path: '/docs/none' }),
    ]);
    const [written, options, read, stat, dir, missing, root, docs, none] = tools.map(parsed);
    expect(written).toMatchObject({
      path: '/docs/a.md',
      name: 'a.md',
      mimeType: 'text/markdown',
      storage: 'local',
      size: 5,
      isDirectory: false,
      metadata: { source: 'spec' },
      type: 'file',
    });
    expect(typeof written.id).toBe('string');
    expect(options).toMatchObject({ path: '/docs/b.txt', mimeType: 'text/plain', metadata: {}, isDirectory: false });
    expect(read).toEqual({ isArrayBuffer: true, text: 'alpha' });
    expect(stat).toMatchObject({ path: '/docs/a.md', mimeType: 'text/markdown', metadata: { source: 'spec' } });
    expect(dir).toMatchObject({ path: '/docs', name: 'docs', isDirectory: true, size: 0, mimeType: 'inode/directory' });
    expect(missing).toBeNull();
    expect(root).toEqual({ entries: [{ name: 'docs', path: '/docs', kind: 'directory', isDirectory: true }] });
    expect(
      docs.entries.map((entry: { name: string; isDirectory: boolean }) => [entry.name, entry.isDirectory]),
    ).toEqual([
      ['a.md', false],
      ['b.txt', false],
    ]);
    expect(none).toBeNull();
  });

  it('TS-22: readFileStream yields the file in chunks of the asked size, the last one marked; null for no file', async () => {
    const size = 200 * 1024 + 7;
    const { tools } = await turn([
      fs({ op: 'write', path: '/big.txt', text: 'x', repeat: size }),
      fs({ op: 'stream', path: '/big.txt', chunkSize: 65536 }),
      fs({ op: 'stream', path: '/big.txt' }),
      fs({ op: 'write', path: '/empty.txt', text: '' }),
      fs({ op: 'stream', path: '/empty.txt' }),
      fs({ op: 'stream', path: '/none.txt' }),
      fs({ op: 'stream', path: '/big.txt', chunkSize: 10 }),
    ]);
    const [, sized, plain, , empty, none] = tools.slice(0, 6).map(parsed);
    expect(sized.chunks).toEqual([
      { index: 0, bytes: 65536, totalChunks: 4, isLast: false },
      { index: 1, bytes: 65536, totalChunks: 4, isLast: false },
      { index: 2, bytes: 65536, totalChunks: 4, isLast: false },
      { index: 3, bytes: size - 3 * 65536, totalChunks: 4, isLast: true },
    ]);
    expect(sized).toMatchObject({ length: size, head: 'x'.repeat(16) });
    expect(plain.chunks).toHaveLength(4);
    expect(empty).toEqual({ chunks: [{ index: 0, bytes: 0, totalChunks: 1, isLast: true }], length: 0, head: '' });
    expect(none).toBeNull();
    expect(tools[6]).toMatchObject({ tool_status: 'error', content: expect.stringContaining('chunkSize must be') });
  });

  it('TS-25: mkdirFile keeps an empty directory across turns and an eviction; rmdirFile removes only an empty one', async () => {
    const first = await turn([
      fs({ op: 'mkdir', path: '/empty/inner' }),
      fs({ op: 'mkdir', path: '/empty/inner' }),
      fs({ op: 'write', path: '/full/f.txt', text: 'f' }),
      fs({ op: 'mkdir', path: '/full/f.txt' }),
      fs({ op: 'mkdir', path: '/full/f.txt/below' }),
      fs({ op: 'mkdir', path: '/marked' }),
      fs({ op: 'write', path: '/marked/x.txt', text: 'x' }),
    ]);
    const [made, again, , onFile, belowFile] = first.tools;
    expect(parsed(made)).toEqual({
      path: '/empty/inner',
      name: 'inner',
      mimeType: 'inode/directory',
      storage: 'local',
      size: 0,
      isDirectory: true,
      metadata: {},
    });
    expect(parsed(again)).toMatchObject({ path: '/empty/inner', isDirectory: true });
    expect(onFile).toMatchObject({ tool_status: 'error', content: expect.stringContaining('/full/f.txt is a file') });
    expect(belowFile).toMatchObject({
      tool_status: 'error',
      content: expect.stringContaining('/full/f.txt is a file'),
    });

    await evictDurableObject(env.THREADS.get(env.THREADS.idFromName(first.id)));
    const second = await turn(
      [
        fs({ op: 'readdir', path: '/empty' }),
        fs({ op: 'stat', path: '/empty/inner' }),
        fs({ op: 'readdir', path: '/empty/inner' }),
        fs({ op: 'rmdir', path: '/full' }),
        fs({ op: 'rmdir', path: '/full/f.txt' }),
        fs({ op: 'rmdir', path: '/' }),
        fs({ op: 'rmdir', path: '/nowhere' }),
        fs({ op: 'rmdir', path: '/empty/inner' }),
        fs({ op: 'stat', path: '/empty/inner' }),
        fs({ op: 'stat', path: '/empty' }),
        fs({ op: 'read', path: '/full/f.txt' }),
        fs({ op: 'rmdir', path: '/marked' }),
      ],
      first.id,
    );
    const t = second.tools;
    expect(parsed(t[0])).toEqual({
      entries: [{ name: 'inner', path: '/empty/inner', kind: 'directory', isDirectory: true }],
    });
    expect(parsed(t[1])).toMatchObject({ isDirectory: true });
    expect(parsed(t[2])).toEqual({ entries: [] });
    expect(t[3]).toMatchObject({ tool_status: 'error', content: expect.stringContaining('/full is not empty') });
    expect(t[4]).toMatchObject({
      tool_status: 'error',
      content: expect.stringContaining('is a file; remove it with unlinkFile'),
    });
    expect(t[5]).toMatchObject({
      tool_status: 'error',
      content: expect.stringContaining('root directory cannot be removed'),
    });
    expect(t[6]).toMatchObject({
      tool_status: 'error',
      content: expect.stringContaining('no such directory: /nowhere'),
    });
    expect(parsed(t[7])).toEqual({ removed: true });
    expect(parsed(t[8])).toBeNull();
    // `/empty` was kept only by the directory below it.
    expect(parsed(t[9])).toBeNull();
    expect(parsed(t[10])).toEqual({ isArrayBuffer: true, text: 'f' });
    // Its own marker listed first does not make a directory with a file in it look empty.
    expect(t[11]).toMatchObject({ tool_status: 'error', content: expect.stringContaining('/marked is not empty') });
  });

  it("TS-26, TS-27: getFileStats counts files, directories and bytes with the thread's quota; getFileThumbnail is null", async () => {
    const { id, tools } = await turn([
      fs({ op: 'write', path: '/a/one.txt', text: '12345' }),
      fs({ op: 'write', path: '/a/b/two.txt', text: '123' }),
      fs({ op: 'mkdir', path: '/kept' }),
      fs({ op: 'stats' }),
      fs({ op: 'write', path: '/img.png', text: 'png', mime: 'image/png' }),
      fs({ op: 'thumbnail', path: '/img.png' }),
      fs({ op: 'thumbnail', path: '/none.png' }),
      fs({ op: 'write', path: '/thumbed.png', text: 'png', thumbnail: true }),
      fs({ op: 'stat', path: '/thumbed.png' }),
    ]);
    const storage = ((await (await api(`/api/threads/${id}`)).json()) as { storage: { quota_bytes: number } }).storage;
    expect(parsed(tools[3])).toEqual({
      fileCount: 2,
      directoryCount: 3,
      totalSize: 8,
      quotaBytes: storage.quota_bytes,
    });
    expect(parsed(tools[5])).toEqual({ thumbnail: null });
    expect(parsed(tools[6])).toEqual({ thumbnail: null });
    expect(tools[7]).toMatchObject({ tool_status: 'error', content: expect.stringContaining('keeps no thumbnails') });
    expect(parsed(tools[8])).toBeNull();
  });
});

describe('TS-28: the new file members are contained like the others', () => {
  it('TS-28: every invalid path is refused by each new member, naming why, and nothing is stored', async () => {
    const cases = invalidPaths('ts28.txt');
    const ops: Record<(typeof SPEC_FILE_MEMBERS)[number], string> = {
      readFileStream: 'stream',
      statFile: 'stat',
      mkdirFile: 'mkdir',
      rmdirFile: 'rmdir',
      getFileThumbnail: 'thumbnail',
    };
    const calls = SPEC_FILE_MEMBERS.flatMap((member) => cases.map((c) => fs({ op: ops[member], path: c.path })));
    const { tools } = await turn([...calls, fs({ op: 'stats' })]);
    SPEC_FILE_MEMBERS.forEach((member, m) => {
      cases.forEach((c, index) => {
        const message = tools[m * cases.length + index];
        expect(message?.tool_status, `${member} ${c.label}`).toBe('error');
        expect(message?.content, `${member} ${c.label}`).toMatch(c.reason);
      });
    });
    expect(parsed(tools.at(-1))).toMatchObject({ fileCount: 0, directoryCount: 0, totalSize: 0 });
  });

  it("TS-28: the thread's rules refuse what they deny (reads under /private, writes under /locked); counts leave out what a call may not read", async () => {
    const { tools } = await turn([
      fs({ op: 'write', path: '/private/key.txt', text: 'secret-ish' }),
      fs({ op: 'write', path: '/open.txt', text: 'open' }),
      fs({ op: 'stream', path: '/private/key.txt' }),
      fs({ op: 'stat', path: '/private/key.txt' }),
      fs({ op: 'thumbnail', path: '/private/key.txt' }),
      fs({ op: 'mkdir', path: '/locked/dir' }),
      fs({ op: 'rmdir', path: '/locked' }),
      fs({ op: 'stats' }),
      fs({ op: 'readdir', path: '/' }),
    ]);
    for (const refused of tools.slice(2, 7)) expect(refused).toMatchObject({ tool_status: 'error' });
    expect(tools[2]?.content).toMatch(/denied|refused|not allowed/i);
    expect(parsed(tools[7])).toMatchObject({ fileCount: 1, totalSize: 4 });
    expect(parsed(tools[8]).entries.map((entry: { path: string }) => entry.path)).toEqual(['/open.txt']);
  });

  it('TS-20: writeFile refuses a MIME type that is not type/subtype and metadata that is not a small JSON object; nothing is written', async () => {
    const { tools } = await turn([
      ...HOSTILE_MIME_TYPES.map((mime) => fs({ op: 'write', path: '/m.txt', text: 'm', mime })),
      ...HOSTILE_MIME_TYPES.map((mime) => fs({ op: 'write_options', path: '/m.txt', text: 'm', mime })),
      ...HOSTILE_FILE_METADATA.map(({ metadata }) => fs({ op: 'write', path: '/m.txt', text: 'm', metadata })),
      fs({ op: 'stats' }),
    ]);
    const refusals = tools.slice(0, -1);
    expect(refusals).toHaveLength(HOSTILE_MIME_TYPES.length * 2 + HOSTILE_FILE_METADATA.length);
    for (const refused of refusals) expect(refused).toMatchObject({ tool_status: 'error' });
    expect(refusals[0]?.content).toContain('is not a MIME type');
    expect(refusals.at(-1)?.content).toContain('larger than 1024 bytes');
    expect(parsed(tools.at(-1))).toMatchObject({ fileCount: 0 });
  });
});

describe('TS-29..TS-32: values, the turn context, the runtime context, invokeTool', () => {
  it('TS-29: getValue resolves null for a missing key; setValue with null or undefined deletes', async () => {
    const { tools } = await turn([
      { name: 'fv_value', arguments: { key: 'k' } },
      { name: 'fv_value', arguments: { key: 'k', set: true, value: { n: 1 } } },
      { name: 'fv_value', arguments: { key: 'k', set: true, value: null } },
      { name: 'fv_value', arguments: { key: 'k', set: true, value: 0 } },
      { name: 'fv_value', arguments: { key: 'k', set: true } },
    ]);
    expect(tools.map(parsed)).toEqual([
      { value: null, isNull: true },
      { value: { n: 1 }, isNull: false },
      { value: null, isNull: true },
      { value: 0, isNull: false },
      { value: null, isNull: true },
    ]);
  });

  it("TS-30, TS-31: state.context is shared by a turn's calls and empty in the next turn; local and shared are reserved; the runtime context holds no bindings", async () => {
    const first = await turn([
      { name: 'fv_context', arguments: { key: 'seen', value: 'by the first call' } },
      { name: 'fv_context', arguments: { key: 'seen' } },
      ...HOSTILE_CONTEXT_KEYS.map(({ key }) => ({ name: 'fv_context', arguments: { key, value: { polluted: true } } })),
      { name: 'fv_context', arguments: { key: 'fresh', value: 1, assign: true } },
    ]);
    const [set, read] = first.tools.slice(0, 2).map(parsed);
    expect(set).toMatchObject({ value: 'by the first call', keys: ['local', 'shared', 'seen'], local: {}, shared: {} });
    expect(read).toMatchObject({ value: 'by the first call' });
    expect(read.runtime).toEqual({ runtime: 'cloudflare-workers' });
    HOSTILE_CONTEXT_KEYS.forEach(({ key, refused }, index) => {
      const message = first.tools[2 + index];
      if (refused) {
        expect(message, key).toMatchObject({ tool_status: 'error', content: expect.stringContaining('is reserved') });
      } else {
        expect(parsed(message), key).toMatchObject({ polluted: null, inherited: null });
      }
    });
    expect(parsed(first.tools.at(-1)).keys).toEqual(['local', 'shared', 'fresh']);

    const second = await turn([{ name: 'fv_context', arguments: { key: 'seen' } }], first.id);
    expect(parsed(second.tools[0])).toMatchObject({ value: null, keys: ['local', 'shared'] });
  });

  it('TS-32: invokeTool resolves a ToolResult for a success, a failure, and a tool that does not exist', async () => {
    const { tools } = await turn([
      { name: 'fv_invoke', arguments: { name: 'fv_value', args: { key: 'x', set: true, value: 7 } } },
      { name: 'fv_invoke', arguments: { name: 'fv_fail' } },
      { name: 'fv_invoke', arguments: { name: 'no_such_tool' } },
      { name: 'fv_invoke', arguments: { name: 'fv_invoke', args: { name: 'fv_fail' } } },
    ]);
    const [success, failure, unknown, itself] = tools
      .filter((m) => m.name === 'fv_invoke' && !m.metadata?.invoked_by)
      .map(parsed);
    expect(success).toEqual({ status: 'success', result: JSON.stringify({ value: 7, isNull: false }) });
    expect(failure).toEqual({ status: 'error', error: 'the disk is full' });
    expect(unknown).toMatchObject({ status: 'error', error: expect.stringContaining('no_such_tool') });
    expect(itself).toEqual({ status: 'error', error: 'tool "fv_invoke" cannot invoke itself' });
  });
});
