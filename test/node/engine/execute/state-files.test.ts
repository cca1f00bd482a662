/**
 * The pure parts of the specification's file, context and value members (TS-20..TS-30), in Node:
 * a call's new acting file members are fenced once it ends, `readFileStream` pulls from storage only
 * as chunks are consumed, and `state.context` keeps its reserved keys apart from the scratch.
 */
import { defineTool, type ThreadState } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { executionContext, replaceScratch, scratchRecord } from '../../../../src/engine/execute/tool-context.js';
import { ThreadFiles } from '../../../../src/engine/files/thread-files.js';
import type { FileStore } from '../../../../src/engine/ports/file-store.js';
import { writeOptions } from '../../../../src/engine/state/index.js';
import { HOSTILE_CONTEXT_KEYS, HOSTILE_MIME_TYPES } from '../../../support/hostile-corpus.js';
import { createHarness, MemoryFileStore } from '../../../support/memory-store.js';

/** A store whose file bodies come in 4 KiB pieces, counting the bytes storage has handed out. */
function pulledStore(): { store: FileStore; pulled: () => number } {
  const inner = new MemoryFileStore();
  let pulled = 0;
  const store: FileStore = {
    put: (path, data, meta) => inner.put(path, data, meta),
    head: (path) => inner.head(path),
    list: (prefix, options) => inner.list(prefix, options),
    delete: (path) => inner.delete(path),
    async get(path) {
      const file = await inner.get(path);
      if (!file) return null;
      const bytes = new Uint8Array(await new Response(file.body).arrayBuffer());
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.byteLength) return controller.close();
          const piece = bytes.slice(offset, offset + 4096);
          offset += piece.byteLength;
          pulled += piece.byteLength;
          controller.enqueue(piece);
        },
      });
      return { stat: file.stat, body };
    },
  };
  return { store, pulled: () => pulled };
}

describe('TS-22: readFileStream', () => {
  it('TS-22: storage is read as chunks are consumed, never the whole file first; stopping cancels the read', async () => {
    const { store, pulled } = pulledStore();
    const files = new ThreadFiles(store);
    await files.write('/big.bin', new Uint8Array(1024 * 1024).fill(7));
    const chunks = await files.readStream('/big.bin', { chunkSize: 64 * 1024 });
    expect(pulled()).toBe(0);
    for await (const chunk of chunks ?? []) {
      expect(chunk).toMatchObject({ index: 0, totalChunks: 16, isLast: false });
      expect(chunk.data.byteLength).toBe(64 * 1024);
      break;
    }
    // One chunk handed out and the one held back to know it was not the last, not the megabyte.
    expect(pulled()).toBeLessThanOrEqual(2 * 64 * 1024 + 4096);
  });

  it('TS-22: an aborted signal rejects the iteration with its reason', async () => {
    const files = new ThreadFiles(new MemoryFileStore());
    await files.write('/a.txt', 'abc');
    const controller = new AbortController();
    controller.abort(new Error('stopped by the caller'));
    const chunks = await files.readStream('/a.txt', { signal: controller.signal });
    const consume = async () => {
      for await (const _ of chunks ?? []) void _;
    };
    await expect(consume()).rejects.toThrow('stopped by the caller');
  });
});

describe('TS-20: writeFile options', () => {
  it('TS-20: the positional MIME type and the options form come to the same options; hostile MIME types are refused', () => {
    expect(writeOptions('image/png', { width: 2 })).toEqual({ width: 2, mimeType: 'image/png' });
    expect(writeOptions({ mimeType: 'text/plain; charset=utf-8' }, undefined)).toEqual({
      mimeType: 'text/plain; charset=utf-8',
    });
    expect(writeOptions(undefined, undefined)).toEqual({ mimeType: undefined });
    // No type given positionally: the options still count, and the extension decides the type.
    expect(writeOptions(undefined, { width: 3 })).toEqual({ width: 3, mimeType: undefined });
    expect(writeOptions('', { height: 4 })).toEqual({ height: 4, mimeType: undefined });
    for (const mime of HOSTILE_MIME_TYPES) {
      expect(() => writeOptions(mime, undefined), JSON.stringify(mime)).toThrow(/not a MIME type/);
      expect(() => writeOptions({ mimeType: mime }, undefined), JSON.stringify(mime)).toThrow(/not a MIME type/);
    }
  });
});

describe('TS-28: fenced file members', () => {
  it('TS-28: after its call has ended, a tool can no longer make or remove directories', async () => {
    let kept: ThreadState | undefined;
    const leaky = defineTool({
      description: 'Keeps its state',
      execute: async (state) => {
        kept = state;
        await state.mkdirFile('/made');
        return { status: 'success', result: 'ok' };
      },
    });
    const h = createHarness({
      tools: { leaky },
      script: [{ toolCalls: [{ name: 'leaky', arguments: {} }] }, { text: 'done' }],
    });
    await h.send('go');
    await expect(kept?.mkdirFile('/late')).rejects.toThrow(/has ended/);
    await expect(kept?.rmdirFile('/made')).rejects.toThrow(/has ended/);
    expect(await h.state().statFile('/made')).toMatchObject({ isDirectory: true });
    expect(await h.state().statFile('/late')).toBeNull();
  });
});

describe('TS-30: state.context', () => {
  it('TS-30: local and shared read the tool context and cannot be written, deleted or assigned; other keys are scratch', () => {
    const scratch = scratchRecord();
    const tool = { local: { mine: 1 }, shared: { all: 2 } };
    const context = executionContext(scratch, tool);
    context.note = 'kept';
    expect(context.local).toEqual({ mine: 1 });
    expect({ ...context }).toEqual({ local: { mine: 1 }, shared: { all: 2 }, note: 'kept' });
    for (const { key, refused } of HOSTILE_CONTEXT_KEYS) {
      if (refused) {
        expect(() => {
          context[key] = {};
        }).toThrow(/is reserved/);
        expect(() => delete context[key]).toThrow(/is reserved/);
      } else {
        context[key] = { polluted: true };
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        // Kept as a key of its own: the record gains no prototype to inherit from.
        expect(context.polluted, key).toBeUndefined();
      }
    }
    replaceScratch(scratch, { ...context, fresh: true });
    expect(Object.keys(context)).toEqual(['local', 'shared', 'note', '__proto__', 'constructor', 'fresh']);
    replaceScratch(scratch, { only: 1, local: 'ignored' });
    expect({ ...context }).toEqual({ local: { mine: 1 }, shared: { all: 2 }, only: 1 });
  });

  it('TS-30: at rest the context is an empty record besides local and shared', () => {
    const h = createHarness();
    const state = h.state();
    expect(Object.keys(state.context)).toEqual(['local', 'shared']);
    state.context.x = 1;
    expect(state.context.x).toBe(1);
    state.context = { y: 2 };
    expect(state.context.x).toBeUndefined();
    expect(state.context.y).toBe(2);
  });
});

describe('TS-32: invokeTool at rest', () => {
  it('TS-32: outside a running tool call invokeTool rejects saying so', async () => {
    const h = createHarness();
    await expect(h.state().invokeTool('anything', {})).rejects.toThrow(/only available to a running tool call/);
  });
});
