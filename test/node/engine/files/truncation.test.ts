/**
 * Truncation of large tool outputs (LOCK-6): the head the model gets, the envelope flags, the sidecar
 * holding the whole output, and the round trip: `read` pages of a sidecar rebuild it byte for byte.
 */
import type { Message, ScriptedReply } from '@standardagents/spec';
import { defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  sidecarPath,
  truncationLimits,
  utf8ByteLength,
  utf8CutIndex,
  utf8Head,
  withEntryLimit,
} from '../../../../src/engine/files/truncation.js';
import type { StoredFileMeta } from '../../../../src/engine/ports/file-store.js';
import { READ_MAX_OUTPUT_BYTES } from '../../../../src/tools/files/read.js';
import { builtinTools } from '../../../../src/tools/index.js';
import { createHarness, MemoryFileStore } from '../../../support/memory-store.js';

/** A tool message, whose content is always text. */
type ToolMessage = Omit<Message, 'content'> & { content: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A tool whose result (or error) is the text it is given, under the given byte limit. */
function emitter(maxOutputBytes?: number) {
  return defineTool({
    description: 'Return the given text',
    args: z.object({ text: z.string(), fail: z.boolean().default(false) }),
    ...(maxOutputBytes ? { maxOutputBytes } : {}),
    execute: async (_state, input) =>
      input.fail ? { status: 'error', error: input.text } : { status: 'success', result: input.text },
  });
}

function harness(options: { maxOutputBytes?: number; fileStore?: MemoryFileStore; scrub?(text: string): string } = {}) {
  const replies: ScriptedReply[] = [];
  const h = createHarness({
    builtinTools,
    tools: { emit: emitter(options.maxOutputBytes) },
    prompt: { tools: ['emit', 'read'] },
    script: () => replies.shift() ?? { text: 'done' },
    ...(options.fileStore ? { fileStore: options.fileStore } : {}),
    ...(options.scrub ? { scrub: options.scrub } : {}),
  });
  return {
    h,
    async call(name: string, args: Record<string, unknown>, id?: string): Promise<ToolMessage> {
      replies.push({ toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }] }, { text: 'ok' });
      await h.send(`call ${name}`);
      const message = h.byRole('tool').at(-1) as Message;
      if (typeof message.content !== 'string') throw new Error('a tool message without text');
      return { ...message, content: message.content };
    },
  };
}

/** Strings mixing 1- to 4-byte characters, CR, LF and a lone surrogate. */
function sampleStrings(): string[] {
  const alphabet = ['a', 'Z', ' ', '\n', '\r', 'é', 'ß', '€', '中', '😀', '𝄞', '\uD800', '\uFEFF'];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  return Array.from({ length: 200 }, () =>
    Array.from({ length: next() % 60 }, () => alphabet[next() % alphabet.length]).join(''),
  );
}

describe('UTF-8 helpers', () => {
  it('LOCK-6: byte lengths agree with TextEncoder, lone surrogates included', () => {
    for (const text of sampleStrings())
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(encoder.encode(text).byteLength);
  });

  it('LOCK-6: a head is the longest prefix of whole characters within the limit', () => {
    for (const text of sampleStrings()) {
      const bytes = encoder.encode(text).byteLength;
      for (let limit = 0; limit <= bytes + 1; limit++) {
        const head = utf8Head(text, limit);
        const headBytes = encoder.encode(head).byteLength;
        expect(text.startsWith(head)).toBe(true);
        expect(headBytes).toBeLessThanOrEqual(limit);
        // One more character would not fit (or there is none).
        const longer = text.slice(0, utf8CutIndex(text, 0, headBytes + 4));
        if (longer.length > head.length) {
          const nextChar = text.slice(
            head.length,
            (text.codePointAt(head.length) ?? 0) > 0xffff ? head.length + 2 : head.length + 1,
          );
          expect(headBytes + encoder.encode(nextChar).byteLength).toBeGreaterThan(limit);
        }
        // Never half a surrogate pair.
        const last = head.charCodeAt(head.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          const after = text.charCodeAt(head.length);
          expect(after >= 0xdc00 && after <= 0xdfff).toBe(false);
        }
      }
    }
  });

  it('LOCK-6: sidecar paths stay inside /.tool-output/ whatever the tool name and call id', () => {
    expect(sidecarPath('grep', 'call_1')).toBe('/.tool-output/grep-call_1.txt');
    expect(sidecarPath('x', '../../etc/passwd')).toBe('/.tool-output/x-__.._etc_passwd.txt');
    expect(sidecarPath('my tool', 'id/with%2fslash')).toBe('/.tool-output/my_tool-id_with_2fslash.txt');
  });

  it('LOCK-6: limits are the tool’s maxOutputBytes (200 KB by default), plus entry limits for glob and grep', () => {
    expect(truncationLimits(emitter())).toEqual({ maxBytes: 200 * 1024 });
    expect(truncationLimits(emitter(512))).toEqual({ maxBytes: 512 });
    expect(truncationLimits(undefined)).toEqual({ maxBytes: 200 * 1024 });
    expect(truncationLimits(builtinTools.glob)).toEqual({ maxBytes: 200 * 1024, maxEntries: 1000 });
    expect(truncationLimits(builtinTools.grep)).toEqual({ maxBytes: 200 * 1024, maxEntries: 200 });
    expect(truncationLimits(builtinTools.read)).toEqual({ maxBytes: 200 * 1024 });
    expect(() => withEntryLimit(emitter(), 0)).toThrow('maxEntries must be a positive integer');
  });
});

describe('truncation of tool results', () => {
  it('LOCK-6: output within the limit is kept whole, with no truncation flags and no sidecar', async () => {
    const t = harness({ maxOutputBytes: 16 });
    const message = await t.call('emit', { text: '0123456789abcdef' });
    expect(message.content).toBe('0123456789abcdef');
    expect(message.envelope).toEqual({
      type: 'output',
      data: '0123456789abcdef',
      metadata: { duration_ms: expect.any(Number) },
    });
    expect(t.h.fileStore.paths()).toEqual([]);
  });

  it('LOCK-6: output over maxOutputBytes gives the head in whole characters, truncated: true and a sidecar with all of it', async () => {
    const t = harness({ maxOutputBytes: 10 });
    const text = 'abcdefghi😀xyz';
    const message = await t.call('emit', { text }, 'call_cut');
    expect(message.content).toBe(
      'abcdefghi\n[Output truncated: showing the first 9 of 16 bytes. The full output is in /.tool-output/emit-call_cut.txt; page through it with read (offset, limit).]',
    );
    expect(message.envelope).toMatchObject({
      type: 'output',
      data: { head: 'abcdefghi', truncated: true, output_path: '/.tool-output/emit-call_cut.txt' },
      metadata: { truncated: true, output_path: '/.tool-output/emit-call_cut.txt' },
    });
    expect(await t.h.files.read('/.tool-output/emit-call_cut.txt')).toEqual(encoder.encode(text));
    expect((await t.h.files.stat('/.tool-output/emit-call_cut.txt'))?.mimeType).toBe('text/plain; charset=utf-8');
  });

  it('LOCK-6: the default limit is 200 KB and error text is truncated the same way', async () => {
    const t = harness();
    const text = `${'é'.repeat(60_000)}${'😀'.repeat(30_000)}`; // 240,000 bytes
    const message = await t.call('emit', { text, fail: true }, 'call_err');
    expect(message.tool_status).toBe('error');
    expect(message.envelope?.type).toBe('error');
    expect(message.envelope?.metadata).toMatchObject({
      truncated: true,
      output_path: '/.tool-output/emit-call_err.txt',
    });
    const head = message.content.slice('Error: '.length, message.content.lastIndexOf('\n['));
    // 120,000 bytes of é, then 84,800 bytes of 4-byte emoji: exactly 21,200 of them fit.
    expect(encoder.encode(head).byteLength).toBe(200 * 1024);
    expect(text.startsWith(head)).toBe(true);
    expect(decoder.decode((await t.h.files.read('/.tool-output/emit-call_err.txt')) as Uint8Array)).toBe(text);
  });

  it('LOCK-6, EXE-8: the sidecar holds the scrubbed output, never a secret', async () => {
    const t = harness({ maxOutputBytes: 8, scrub: (text) => text.replaceAll('hunter2', '[secret]') });
    await t.call('emit', { text: 'token hunter2 leaked' }, 'call_secret');
    const sidecar = decoder.decode((await t.h.files.read('/.tool-output/emit-call_secret.txt')) as Uint8Array);
    expect(sidecar).toBe('token [secret] leaked');
  });

  it('LOCK-6: when the sidecar cannot be written, the result is still cut and says so, with no output_path', async () => {
    class FailingStore extends MemoryFileStore {
      override async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta) {
        if (path.startsWith('/.tool-output/')) throw new Error('bucket unavailable');
        return super.put(path, data, meta);
      }
    }
    const t = harness({ maxOutputBytes: 4, fileStore: new FailingStore() });
    const message = await t.call('emit', { text: 'abcdefgh' });
    expect(message.content).toBe(
      'abcd\n[Output truncated: showing the first 4 of 8 bytes. The full output could not be saved: bucket unavailable]',
    );
    expect(message.envelope?.metadata.truncated).toBe(true);
    expect(message.envelope?.metadata.output_path).toBeUndefined();
  });
});

/** The rows of one read page: `N\ttext` starts a line, `N+\ttext` continues the one before. */
function rowsOf(page: string): Array<{ number: number; continued: boolean; text: string }> {
  const rows = [];
  for (const line of page.split('\n')) {
    const match = /^ *(\d+)(\+?)\t/.exec(line);
    if (!match) break;
    rows.push({ number: Number(match[1]), continued: match[2] === '+', text: line.slice(match[0].length) });
  }
  return rows;
}

/** About 290 KB: short lines, CRLF lines, and a 150 KB line whose 64 KB row cuts fall between multi-byte characters. */
function bigOutput(finalNewline: boolean): string {
  const lines: string[] = [];
  for (let index = 1; index < 500; index++) {
    lines.push(index % 7 === 0 ? `crlf line ${index} ünïcödé\r` : `line ${index}: ${'中文😀'.repeat(index % 13)} end`);
  }
  lines.push('a€😀é'.repeat(15_000)); // line 500: 150,000 bytes, 10 bytes per repeat
  for (let index = 501; index < 1500; index++) lines.push(`tail ${index} ${'x'.repeat(index % 200)}`);
  const text = lines.join('\n');
  return finalNewline ? `${text}\n` : text;
}

describe('paging a sidecar with read', () => {
  for (const finalNewline of [false, true]) {
    it(`LOCK-6: read pages of a sidecar concatenate to the original byte for byte (${finalNewline ? 'with' : 'without'} a final newline)`, async () => {
      const t = harness();
      const original = bigOutput(finalNewline);
      expect(encoder.encode(original).byteLength).toBeGreaterThan(READ_MAX_OUTPUT_BYTES);
      const emitted = await t.call('emit', { text: original }, 'call_big');
      const path = emitted.envelope?.metadata.output_path as string;
      expect(path).toBe('/.tool-output/emit-call_big.txt');

      const rows: ReturnType<typeof rowsOf> = [];
      let pageStartsMidLine = false;
      for (let offset: number | null = 0, pages = 0; offset !== null; pages++) {
        expect(pages).toBeLessThan(50);
        // Each page in a fresh turn on the same files, so the context does not grow with the pages.
        const reader = harness({ fileStore: t.h.fileStore });
        const page = await reader.call('read', { path, offset, limit: 20_000 });
        expect(page.tool_status).toBe('success');
        expect(encoder.encode(page.content).byteLength).toBeLessThanOrEqual(READ_MAX_OUTPUT_BYTES);
        const pageRows = rowsOf(page.content);
        if (pageRows[0]?.continued) pageStartsMidLine = true;
        rows.push(...pageRows);
        const next = /read on with offset (\d+)\.\]$/.exec(page.content);
        offset = next ? Number(next[1]) : null;
      }
      // Line 500 is 150 KB: its 64 KB rows each open a page, numbered 500+ after the first.
      expect(pageStartsMidLine).toBe(true);
      const rebuilt = rows.map((row, index) => (index === 0 || row.continued ? '' : '\n') + row.text).join('');
      // Byte comparison without a deep-equality walk over 290,000 elements.
      expect(Buffer.compare(encoder.encode(rebuilt), encoder.encode(original))).toBe(0);
      // Line numbers: a continued row keeps its line's number, every other row is the next line.
      for (const [index, row] of rows.entries()) {
        const before = index === 0 ? 0 : (rows[index - 1]?.number as number);
        expect(row.number).toBe(row.continued ? before : before + 1);
      }
    });
  }
});
