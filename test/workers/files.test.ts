import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { bytesLeak, invisiblePaths, nameableSecret, SECRET_FILE_CASES } from '../support/hostile-corpus.js';

/** A thread path as it travels in a URL: each segment percent-encoded as UTF-8. */
const urlPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

async function storedKeys(id: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `threads/${id}/` })).objects.map((object) => object.key);
}

describe('thread files', () => {
  it('ATT-5: a file uploaded over HTTP is downloaded byte for byte with its mime type', async () => {
    const id = await createThread({ agent: 'general' });
    const bytes = crypto.getRandomValues(new Uint8Array(64 * 1024));
    const put = await api(`/api/threads/${id}/files/docs/data.bin`, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/x-test', 'content-length': String(bytes.byteLength) },
    });
    expect(put.status).toBe(201);
    expect(await put.json()).toMatchObject({
      type: 'file',
      path: '/docs/data.bin',
      name: 'data.bin',
      mimeType: 'application/x-test',
      size: bytes.byteLength,
    });
    const get = await api(`/api/threads/${id}/files/docs/data.bin`);
    expect(get.headers.get('content-type')).toBe('application/x-test');
    expect(new Uint8Array(await get.arrayBuffer())).toEqual(bytes);
    const folder = (await (await api(`/api/threads/${id}/files/docs/`)).json()) as { entries: unknown[] };
    expect(folder.entries).toEqual([
      { name: 'data.bin', path: '/docs/data.bin', kind: 'file', size: bytes.byteLength },
    ]);
  });

  it('ATT-5: an upload over the size limit is refused with 413 before anything is stored', async () => {
    const id = await createThread({ agent: 'general' });
    const response = await api(`/api/threads/${id}/files/big.bin`, {
      method: 'PUT',
      body: new Uint8Array(16),
      headers: { 'content-length': String(200 * 1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('file_too_large');
    expect((await api(`/api/threads/${id}/files/big.bin`)).status).toBe(404);
  });

  it('ATT-3: paths with ".." or encoded traversal are refused and nothing escapes the thread', async () => {
    const id = await createThread({ agent: 'general' });
    const other = await createThread({ agent: 'general' });
    await api(`/api/threads/${other}/files/secret.txt`, {
      method: 'PUT',
      body: 'other thread',
      headers: { 'content-length': '12' },
    });
    for (const path of [
      `..%2F${other}%2Fsecret.txt`,
      `a/..%2F..%2F${other}/secret.txt`,
      `%252e%252e/${other}/secret.txt`,
      'a%5C..%5Cb.txt',
      'x%00.txt',
    ]) {
      const response = await api(`/api/threads/${id}/files/${path}`);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe('invalid_path');
      const upload = await api(`/api/threads/${id}/files/${path}`, {
        method: 'PUT',
        body: 'x',
        headers: { 'content-length': '1' },
      });
      expect(upload.status, path).toBe(400);
    }
    const keys = (await env.FILES.list({ prefix: `threads/${id}` })).objects.map((object) => object.key);
    expect(keys).toEqual([]);
  });

  it('ATT-1: a tool attachment with data is stored under /attachments/ and linked to the tool message', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'make_attachment', arguments: { name: 'note.txt', text: 'hello file' } }] },
            { text: 'done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const tool = log.find((m) => m.role === 'tool');
    const [ref] = tool?.attachments ?? [];
    expect(ref).toMatchObject({
      type: 'file',
      name: expect.stringMatching(/note\.txt$/),
      mimeType: 'text/plain',
      size: 10,
    });
    expect(ref?.path).toMatch(/^\/attachments\/.+note\.txt$/);
    const download = await api(`/api/threads/${id}/files${ref?.path}`);
    expect(await download.text()).toBe('hello file');
  });

  it('THR-7: a tool reads a file the client uploaded through state.readFile', async () => {
    const id = await createThread({ agent: 'general' });
    await api(`/api/threads/${id}/files/inbox/hello.txt`, {
      method: 'PUT',
      body: 'from the client',
      headers: { 'content-length': '15' },
    });
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [{ name: 'read_file', arguments: { path: 'inbox/hello.txt' } }] },
          { text: 'ok' },
        ]),
      },
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toBe('from the client');
  });

  it('ATT-1: deleting a thread deletes its files', async () => {
    const id = await createThread({ agent: 'general' });
    await api(`/api/threads/${id}/files/a.txt`, { method: 'PUT', body: 'a', headers: { 'content-length': '1' } });
    expect((await env.FILES.list({ prefix: `threads/${id}/` })).objects).toHaveLength(1);
    await api(`/api/threads/${id}`, { method: 'DELETE' });
    expect((await env.FILES.list({ prefix: `threads/${id}/` })).objects).toHaveLength(0);
  });

  it('ATT-3: a name with an invisible or bidirectional character is refused with 400 on PUT and GET; nothing is stored', async () => {
    const id = await createThread({ agent: 'general' });
    const cases = [
      ...invisiblePaths('x.txt').map(({ label, path, url }) => ({ label, url: url ?? urlPath(path) })),
      { label: 'the right-to-left override of a review', url: '%E2%80%AEtxt.exe' },
    ];
    for (const { label, url } of cases) {
      const put = await api(`/api/threads/${id}/files/${url}`, {
        method: 'PUT',
        body: 'hidden',
        headers: { 'content-length': '6' },
      });
      expect(put.status, label).toBe(400);
      expect(((await put.json()) as { error: { code: string } }).error.code, label).toBe('invalid_path');
      const get = await api(`/api/threads/${id}/files/${url}`);
      expect(get.status, label).toBe(400);
    }
    expect(await storedKeys(id)).toEqual([]);
  });

  it('EXE-8: a secret never names a stored file, nor hides in bytes the scrubber cannot read; listings never show it', async () => {
    const { secret, core } = nameableSecret();
    const id = await createThread({ agent: 'secret_files', headless: true, variables: { FILE_SECRET: secret } });
    await api(`/api/threads/${id}/files/out/kept.txt`, {
      method: 'PUT',
      body: 'kept',
      headers: { 'content-length': '4' },
    });
    const writes = SECRET_FILE_CASES.map((_, index) => ({ name: 'write_secret_file', arguments: { index } }));
    const listings = [
      { name: 'glob', arguments: { pattern: '**/*' } },
      { name: 'bash', arguments: { command: 'ls -R /' } },
    ];
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([...[...writes, ...listings].map((call) => ({ toolCalls: [call] })), { text: 'done' }]),
      },
    });
    const log = await settled(id);
    const results = log.filter((message) => message.role === 'tool');
    for (const [index, entry] of SECRET_FILE_CASES.entries()) {
      expect(results[index]?.tool_status, entry.label).toBe('error');
      expect(results[index]?.content, entry.label).toMatch(/holds a secret value.*nothing was written/);
    }
    expect(JSON.stringify(log)).not.toContain(core);
    // Only the client's own file is stored; no key and no byte of any object holds the secret.
    expect(await storedKeys(id)).toEqual([`threads/${id}/out/kept.txt`]);
    const listing = await api(`/api/threads/${id}/files/out/`);
    expect(await listing.text()).not.toContain(core);
    for (const entry of SECRET_FILE_CASES) {
      // Asked for by its name, which the client had to know: no such file.
      expect((await api(`/api/threads/${id}/files${urlPath(entry.path(secret))}`)).status, entry.label).toBe(404);
    }
    for (const key of await storedKeys(id)) {
      const bytes = new Uint8Array(await ((await env.FILES.get(key))?.arrayBuffer() ?? new ArrayBuffer(0)));
      expect(bytesLeak(bytes, core), key).toBe(false);
    }
  });
});
