/**
 * The in-memory storage the engine tests run on must behave like the Durable Object's (THR-1): if it
 * drifted, every other test here would prove less. These tests pin the contract of ThreadStore and
 * FileStore as the SQLite and R2 implementations fulfil it, and ThreadFiles / ThreadState on top.
 */
import { describe, expect, it } from 'vitest';
import { ThreadFiles } from '../../../src/engine/files/thread-files.js';
import { createHarness, MemoryFileStore, MemoryThreadStore } from '../../support/memory-store.js';

const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);

describe('THR-1: the thread store contract', () => {
  it('THR-1: appended messages get strictly increasing seq numbers, defaults, and unique ids', () => {
    const store = new MemoryThreadStore({ id: 't1' }, () => 123);
    const first = store.append({ role: 'user', content: 'a' });
    const second = store.append({ id: 'fixed', role: 'assistant', content: 'b' });
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(second.id).toBe('fixed');
    expect(first).toMatchObject({
      role: 'user',
      content: 'a',
      name: null,
      tool_calls: null,
      tool_call_id: null,
      created_at: 123,
      parent_id: null,
      depth: 0,
      silent: false,
      metadata: null,
      tool_status: null,
      attachments: null,
      envelope: null,
    });
    expect(() => store.append({ id: 'fixed', role: 'user', content: 'dup' })).toThrow(/UNIQUE/);
    expect(store.messages().map((m) => m.id)).toEqual([first.id, 'fixed']);
  });

  it('THR-1: stored JSON fields are copies, as a database would keep them', () => {
    const store = new MemoryThreadStore();
    const metadata = { n: 1 };
    const stored = store.append({ role: 'user', content: 'x', metadata });
    metadata.n = 2;
    expect(stored.metadata).toEqual({ n: 1 });
  });

  it('THR-1: kv round-trips JSON values; undefined deletes', () => {
    const store = new MemoryThreadStore();
    store.setValue('k', { list: [1, 2], nested: { ok: true } });
    expect(store.getValue('k')).toEqual({ list: [1, 2], nested: { ok: true } });
    store.setValue('k', undefined);
    expect(store.getValue('k')).toBeUndefined();
  });

  it('SUB-7: the queue drains in arrival order, once', () => {
    const store = new MemoryThreadStore();
    store.enqueue({ role: 'user', content: '1' });
    store.enqueue({ role: 'user', content: '2' });
    expect(store.hasQueued()).toBe(true);
    expect(store.drainQueue().map((m) => m.content)).toEqual(['1', '2']);
    expect(store.drainQueue()).toEqual([]);
    expect(store.hasQueued()).toBe(false);
  });

  it('THR-3: the tool journal remembers started calls', () => {
    const store = new MemoryThreadStore();
    expect(store.toolStarted('c1')).toBe(false);
    store.markToolStarted('c1');
    store.markToolStarted('c1');
    expect(store.toolStarted('c1')).toBe(true);
    expect(store.toolStarted('c2')).toBe(false);
  });
});

describe('ATT-1: the file store contract (R2 semantics)', () => {
  async function seeded() {
    const store = new MemoryFileStore(() => 42);
    const files = new ThreadFiles(store);
    await files.write('/a.txt', 'root file');
    await files.write('/docs/readme.md', '# readme');
    await files.write('/docs/guide/intro.md', 'intro');
    await files.write('/docs/guide/deep/more.md', 'more');
    await files.write('/docsextra/x.txt', 'file outside /docs/');
    await files.write('/img/p.png', new Uint8Array([1, 2, 3]), { mimeType: 'image/png', width: 10, height: 20 });
    return { store, files };
  }

  it('ATT-1: a non-recursive listing gives files directly under the prefix and immediate directories', async () => {
    const { store } = await seeded();
    const listing = await store.list('/docs/', { recursive: false });
    expect(listing.files.map((f) => f.path)).toEqual(['/docs/readme.md']);
    expect(listing.directories).toEqual(['/docs/guide']);
    const root = await store.list('/', { recursive: false });
    expect(root.files.map((f) => f.path)).toEqual(['/a.txt']);
    expect(root.directories).toEqual(['/docs', '/docsextra', '/img']);
  });

  it('ATT-1: a recursive listing gives every file below the directory prefix and no directories', async () => {
    const { store } = await seeded();
    const listing = await store.list('/docs/', { recursive: true });
    expect(listing.files.map((f) => f.path)).toEqual([
      '/docs/guide/deep/more.md',
      '/docs/guide/intro.md',
      '/docs/readme.md',
    ]);
    expect(listing.directories).toEqual([]);
  });

  it('ATT-1: stat carries mime type, size, upload time and dimensions; get streams the bytes', async () => {
    const { store } = await seeded();
    expect(await store.head('/img/p.png')).toEqual({
      path: '/img/p.png',
      name: 'p.png',
      size: 3,
      mimeType: 'image/png',
      uploadedAt: 42,
      width: 10,
      height: 20,
    });
    expect(await store.head('/docs/readme.md')).toMatchObject({ mimeType: 'text/markdown', size: 8 });
    const file = await store.get('/img/p.png');
    expect(new Uint8Array(await new Response(file?.body).arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(await store.get('/nope')).toBeNull();
  });

  it('ATT-1: put accepts a stream; delete reports whether something was removed', async () => {
    const store = new MemoryFileStore();
    const body = new Blob(['streamed']).stream();
    expect(await store.put('/s.txt', body, { mimeType: 'text/plain' })).toMatchObject({ size: 8 });
    expect(await store.delete('/s.txt')).toBe(true);
    expect(await store.delete('/s.txt')).toBe(false);
  });

  it('THR-7: readdir, find, grep, read and unlink through ThreadFiles', async () => {
    const { files } = await seeded();
    expect(await files.readdir('docs')).toEqual([
      { name: 'guide', path: '/docs/guide', kind: 'directory' },
      { name: 'readme.md', path: '/docs/readme.md', kind: 'file', size: 8 },
    ]);
    expect(await files.find('docs/**/*.md')).toEqual([
      '/docs/guide/deep/more.md',
      '/docs/guide/intro.md',
      '/docs/readme.md',
    ]);
    expect(await files.grep('^in', { path: '/docs' })).toEqual([
      { path: '/docs/guide/intro.md', line: 1, text: 'intro' },
    ]);
    expect(await files.grep('file')).toEqual([
      { path: '/a.txt', line: 1, text: 'root file' },
      { path: '/docsextra/x.txt', line: 1, text: 'file outside /docs/' },
    ]);
    expect(text(await files.read('/docs/readme.md'))).toBe('# readme');
    expect(await files.unlink('/docs/readme.md')).toBe(true);
    expect(await files.read('/docs/readme.md')).toBeNull();
  });
});

describe('THR-7: ThreadState over the memory store', () => {
  it('THR-7: identity, kv isolation from runtime keys, messages and events', async () => {
    const h = createHarness({ info: { id: 'thread-1', userId: 'u-9', createdAt: 5 } });
    const state = h.state();
    expect([state.threadId, state.agentId, state.userId, state.createdAt]).toEqual([
      'thread-1',
      'test_agent',
      'u-9',
      5,
    ]);
    h.store.addChild('child-1', { name: 'helper', description: 'Helps', blocking: true });
    expect(state.children).toEqual([
      {
        reference: 'child-1',
        name: 'helper',
        description: 'Helps',
        blocking: true,
        createdAt: expect.any(Number),
        status: 'running',
      },
    ]);

    await state.setValue('context', 'user value');
    expect(await state.getValue('context')).toBe('user value');
    expect(state.context).toEqual({ local: {}, shared: {} }); // the runtime's own 'context' key is untouched

    const injected = await state.injectMessage({ role: 'user', content: 'hi' });
    expect(await state.getMessages()).toEqual({ messages: [injected], total: 1, hasMore: false });
    expect(await state.getMessages({ after: injected.seq })).toEqual({ messages: [], total: 0, hasMore: false });
    state.emit('progress', { pct: 50 });
    expect(h.frames.at(-1)).toEqual({ type: 'event', event: 'progress', data: { pct: 50 } });
  });
});
