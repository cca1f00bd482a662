/**
 * The locked filesystem tools and `todo` (LOCK-1, LOCK-2, LOCK-5, LOCK-6, LOCK-7), each driven through
 * the engine loop by a scripted model's tool call, exactly as a thread runs them.
 */
import type { Message, ScriptedReply } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import type { StoredFileMeta } from '../../../src/engine/ports/file-store.js';
import type { Frame } from '../../../src/engine/ports/frames.js';
import { READ_MAX_FILE_BYTES, READ_MAX_OUTPUT_BYTES, READ_MAX_ROW_BYTES } from '../../../src/tools/files/read.js';
import { builtinTools } from '../../../src/tools/index.js';
import { TODO_KEY } from '../../../src/tools/session/todo.js';
import { HOSTILE_READ_RANGES, READ_RANGE_FILE } from '../../support/hostile-corpus.js';
import { createHarness, type Harness, MemoryFileStore } from '../../support/memory-store.js';

/** A tool message, whose content is always text. */
type ToolMessage = Omit<Message, 'content'> & { content: string };

const LOCKED_FS = ['read', 'write', 'edit', 'glob', 'grep', 'todo'] as const;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Counts writes, so a test can tell "nothing was written" from "the same bytes were written again". */
class CountingFileStore extends MemoryFileStore {
  readonly puts: string[] = [];
  override async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta) {
    this.puts.push(path);
    return super.put(path, data, meta);
  }
}

interface FsHarness {
  h: Harness;
  fileStore: CountingFileStore;
  /** Runs one turn in which the model calls `name` once, and returns the tool message. */
  call(name: string, args: Record<string, unknown>, id?: string): Promise<ToolMessage>;
  put(path: string, data: string | Uint8Array): Promise<void>;
  text(path: string): Promise<string | null>;
}

function fsHarness(): FsHarness {
  const replies: ScriptedReply[] = [];
  const fileStore = new CountingFileStore();
  const h = createHarness({
    builtinTools,
    fileStore,
    prompt: { tools: [...LOCKED_FS] },
    script: () => replies.shift() ?? { text: 'done' },
  });
  return {
    h,
    fileStore,
    async call(name, args, id) {
      replies.push({ toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }] }, { text: 'ok' });
      await h.send(`call ${name}`);
      const message = h.byRole('tool').at(-1) as Message;
      if (typeof message.content !== 'string') throw new Error('a tool message without text');
      return { ...message, content: message.content };
    },
    async put(path, data) {
      await h.files.write(path, data);
    },
    async text(path) {
      const bytes = await h.files.read(path);
      return bytes ? decoder.decode(bytes) : null;
    },
  };
}

function numbered(lines: string[], first = 1): string {
  return lines.map((line, index) => `${String(first + index).padStart(6)}\t${line}`).join('\n');
}

describe('locked tools: declarations', () => {
  it('LOCK-1: read, write, edit, glob, grep and todo are built in under their locked ids', () => {
    for (const name of LOCKED_FS) expect(builtinTools[name], name).toBeDefined();
  });

  it('LOCK-5, LOCK-7: every tool declares its ACP kind and its requirements with {workspace} patterns', () => {
    const expected = {
      read: { kind: 'read', requires: { fs: { read: ['{workspace}/**'] } }, readOnly: true, concurrent: true },
      write: { kind: 'edit', requires: { fs: { write: ['{workspace}/**'] } }, readOnly: false, concurrent: false },
      edit: {
        kind: 'edit',
        requires: { fs: { read: ['{workspace}/**'], write: ['{workspace}/**'] } },
        readOnly: false,
        concurrent: false,
      },
      glob: { kind: 'search', requires: { fs: { read: ['{workspace}/**'] } }, readOnly: true, concurrent: true },
      grep: { kind: 'search', requires: { fs: { read: ['{workspace}/**'] } }, readOnly: true, concurrent: true },
      todo: { kind: 'think', requires: {}, readOnly: false, concurrent: false },
    };
    for (const name of LOCKED_FS) {
      const tool = builtinTools[name];
      expect({
        kind: tool?.acpKind,
        requires: tool?.requires,
        readOnly: tool?.readOnly,
        concurrent: tool?.concurrent,
      }).toEqual(expected[name]);
    }
    expect(builtinTools.read?.maxOutputBytes).toBe(200 * 1024);
  });

  it('LOCK-7: the tool_started and tool_result frames carry each tool’s ACP kind', async () => {
    const t = fsHarness();
    await t.call('write', { path: 'a.txt', content: 'x' });
    await t.call('read', { path: 'a.txt' });
    await t.call('grep', { pattern: 'x' });
    await t.call('todo', { todos: [] });
    const kinds = (type: string) =>
      t.h.frames
        .filter((frame): frame is Frame & { name: string; kind: string } => frame.type === type)
        .map((frame) => [frame.name, frame.kind]);
    const expected = [
      ['write', 'edit'],
      ['read', 'read'],
      ['grep', 'search'],
      ['todo', 'think'],
    ];
    expect(kinds('tool_started')).toEqual(expected);
    expect(kinds('tool_result')).toEqual(expected);
  });
});

describe('read', () => {
  it('BYTES-1: read numbers lines cat -n style; offset is a byte and limit a byte count, lines kept whole', async () => {
    const t = fsHarness();
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`);
    await t.put('/docs/ten.txt', `${lines.join('\n')}\n`);
    const whole = await t.call('read', { path: 'docs/ten.txt' });
    expect(whole.tool_status).toBe('success');
    // The final newline leaves an empty last line, so the lines joined by \n are the file exactly.
    expect(whole.content).toBe(numbered([...lines, '']));
    // Byte 16 is inside line 3 (bytes 14-20): the page starts at that line, and 14 bytes hold lines 3 and 4.
    const page = await t.call('read', { path: '/docs/ten.txt', offset: 16, limit: 14 });
    expect(page.content).toBe(
      `${numbered(['line 3', 'line 4'], 3)}\n[Lines 3-4 of 11, bytes 14-27 of 71 (limit 14 bytes); read on with offset 28.]`,
    );
    const next = await t.call('read', { path: '/docs/ten.txt', offset: 28, limit: 1 });
    expect(next.content.split('\n')[0]).toBe('     5\tline 5');
    const past = await t.call('read', { path: '/docs/ten.txt', offset: 500 });
    expect(past).toMatchObject({ tool_status: 'error' });
    expect(past.content).toContain('offset 500 is past the end of the file, which has 71 bytes');
  });

  it('BYTES-1: the offsets the closing lines name page through a file, every line shown once', async () => {
    const t = fsHarness();
    await t.put('/long.txt', Array.from({ length: 2500 }, (_, index) => `row ${index + 1}`).join('\n'));
    const seen: number[] = [];
    for (let offset: number | null = 0, pages = 0; offset !== null; pages++) {
      expect(pages).toBeLessThan(20);
      const page = await t.call('read', { path: '/long.txt', offset, limit: 2000 });
      for (const line of page.content.split('\n')) {
        const row = /^ *(\d+)\trow (\d+)$/.exec(line);
        if (row) {
          expect(row[1]).toBe(row[2]);
          seen.push(Number(row[1]));
        }
      }
      const next = /read on with offset (\d+)\.\]$/.exec(page.content);
      offset = next ? Number(next[1]) : null;
    }
    expect(seen).toEqual(Array.from({ length: 2500 }, (_, index) => index + 1));
  });

  it('LOCK-1: read refuses a binary file (NUL byte or invalid UTF-8 in the first 8 KB) with its size and mime type', async () => {
    const t = fsHarness();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await t.put('/img/logo.png', png);
    const nul = await t.call('read', { path: '/img/logo.png' });
    expect(nul).toMatchObject({ tool_status: 'error' });
    expect(nul.content).toBe('Error: /img/logo.png is a binary file (12 bytes, image/png); it cannot be shown as text');
    await t.put('/latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const latin1 = await t.call('read', { path: '/latin1.txt' });
    expect(latin1.content).toBe(
      'Error: /latin1.txt is a binary file (5 bytes, text/plain); it cannot be shown as text',
    );
    // A character cut by the 8 KB sniffing boundary is still text, and so is invalid UTF-8 past it.
    const boundary = `${'a'.repeat(8191)}€ end`;
    await t.put('/boundary.txt', boundary);
    expect((await t.call('read', { path: '/boundary.txt' })).content).toBe(numbered([boundary]));
  });

  it('LOCK-1: read on a missing file or a directory fails clearly and suggests listing', async () => {
    const t = fsHarness();
    await t.put('/docs/a.md', 'a');
    await t.put('/docs/b.md', 'b');
    const missing = await t.call('read', { path: '/docs/c.md' });
    expect(missing).toMatchObject({ tool_status: 'error' });
    expect(missing.content).toBe(
      'Error: File not found: /docs/c.md; list the files with glob (pattern "**/*") to find the right path',
    );
    const folder = await t.call('read', { path: 'docs' });
    expect(folder.content).toBe(
      'Error: /docs is a directory (2 entries), not a file; list its files with glob (pattern "*", path "/docs")',
    );
    const outside = await t.call('read', { path: '../other/secret.txt' });
    expect(outside.content).toContain('".." segments are not allowed');
  });

  it('LOCK-6: read stays under 200 KB by paging, never through a sidecar', async () => {
    const t = fsHarness();
    const line = 'x'.repeat(999);
    await t.put('/big.txt', Array.from({ length: 600 }, () => line).join('\n'));
    const first = await t.call('read', { path: '/big.txt' });
    expect(encoder.encode(first.content).byteLength).toBeLessThanOrEqual(READ_MAX_OUTPUT_BYTES);
    expect(first.envelope?.metadata.truncated).toBeUndefined();
    const next = /read on with offset (\d+)/.exec(first.content)?.[1];
    expect(first.content).toContain('the 200 KB output limit was reached');
    expect(Number(next)).toBeGreaterThan(190_000);
    expect(t.fileStore.paths().filter((path) => path.startsWith('/.tool-output/'))).toEqual([]);
  });

  it('LOCK-1: read and edit refuse a file over 32 MB instead of loading it whole', async () => {
    const t = fsHarness();
    await t.put('/huge.txt', new Uint8Array(READ_MAX_FILE_BYTES + 1).fill(0x61));
    const read = await t.call('read', { path: '/huge.txt', limit: 1 });
    expect(read.content).toBe(
      `Error: /huge.txt is ${READ_MAX_FILE_BYTES + 1} bytes, over the 32 MB a tool can read as text`,
    );
    const edit = await t.call('edit', { path: '/huge.txt', old_string: 'a', new_string: 'b', replace_all: true });
    expect(edit.content).toContain('over the 32 MB a tool can read as text; /huge.txt was not changed');
  });

  it('LOCK-1: read shows an empty file as such and keeps a byte order mark and CR characters', async () => {
    const t = fsHarness();
    await t.put('/empty.txt', '');
    expect((await t.call('read', { path: '/empty.txt' })).content).toBe('(empty file)');
    await t.put('/bom.txt', '\uFEFFa\r\nb');
    expect((await t.call('read', { path: '/bom.txt' })).content).toBe(numbered(['\uFEFFa\r', 'b']));
  });
});

describe('write', () => {
  it('LOCK-1: write creates or overwrites a file and answers with its path and byte count', async () => {
    const t = fsHarness();
    const created = await t.call('write', { path: 'notes//plan.md', content: 'héllo\n' });
    expect(created).toMatchObject({ tool_status: 'success', content: 'Created /notes/plan.md (7 bytes)' });
    expect(await t.text('/notes/plan.md')).toBe('héllo\n');
    const replaced = await t.call('write', { path: '/notes/plan.md', content: '' });
    expect(replaced.content).toBe('Overwrote /notes/plan.md (0 bytes)');
    expect(await t.text('/notes/plan.md')).toBe('');
    const refused = await t.call('write', { path: '/a/../../b.txt', content: 'x' });
    expect(refused).toMatchObject({ tool_status: 'error' });
    expect(t.fileStore.paths()).toEqual(['/notes/plan.md']);
  });
});

describe('edit', () => {
  it('LOCK-2: edit replaces a unique string and keeps everything else', async () => {
    const t = fsHarness();
    await t.put('/src/app.ts', 'const a = 1;\nconst b = 2;\n');
    const message = await t.call('edit', { path: '/src/app.ts', old_string: 'b = 2', new_string: 'b = $& + 3' });
    expect(message).toMatchObject({
      tool_status: 'success',
      content: 'Edited /src/app.ts: replaced 1 occurrence (31 bytes)',
    });
    // `$&` is literal text, not a replacement pattern.
    expect(await t.text('/src/app.ts')).toBe('const a = 1;\nconst b = $& + 3;\n');
  });

  it('LOCK-2: a non-unique old_string without replace_all fails and writes nothing (the file stays byte-identical)', async () => {
    const t = fsHarness();
    const original = encoder.encode('x = 1\ny = 1\nz = 1\n');
    await t.put('/vars.txt', original);
    const writes = t.fileStore.puts.length;
    const message = await t.call('edit', { path: '/vars.txt', old_string: '= 1', new_string: '= 2' });
    expect(message).toMatchObject({ tool_status: 'error' });
    expect(message.content).toBe(
      'Error: old_string occurs 3 times in /vars.txt; add surrounding lines to make it unique, or set replace_all to replace every occurrence; /vars.txt was not changed',
    );
    expect(t.fileStore.puts.length).toBe(writes);
    expect(await t.h.files.read('/vars.txt')).toEqual(original);
  });

  it('LOCK-2: a missing old_string, identical strings or a missing file fail and write nothing', async () => {
    const t = fsHarness();
    const original = encoder.encode('alpha\nbeta\n');
    await t.put('/ab.txt', original);
    const writes = t.fileStore.puts.length;
    const missing = await t.call('edit', { path: '/ab.txt', old_string: 'gamma', new_string: 'delta' });
    expect(missing.content).toBe(
      'Error: old_string was not found in /ab.txt; read the file and copy the text exactly, whitespace included; /ab.txt was not changed',
    );
    const same = await t.call('edit', { path: '/ab.txt', old_string: 'alpha', new_string: 'alpha' });
    expect(same.content).toBe('Error: old_string and new_string are identical; /ab.txt was not changed');
    const empty = await t.call('edit', { path: '/ab.txt', old_string: '', new_string: 'x' });
    expect(empty.content).toBe('Error: old_string is empty; /ab.txt was not changed');
    const noFile = await t.call('edit', { path: '/nope.txt', old_string: 'a', new_string: 'b' });
    expect(noFile.content).toContain('File not found: /nope.txt');
    await t.put('/bin.dat', new Uint8Array([1, 0, 2]));
    const binary = await t.call('edit', { path: '/bin.dat', old_string: 'a', new_string: 'b' });
    expect(binary.content).toContain('/bin.dat is a binary file (3 bytes');
    expect(t.fileStore.puts.length).toBe(writes + 1);
    expect(await t.h.files.read('/ab.txt')).toEqual(original);
  });

  it('LOCK-2: replace_all replaces every occurrence', async () => {
    const t = fsHarness();
    await t.put('/vars.txt', 'x = 1\ny = 1\nz = 1\n');
    const message = await t.call('edit', {
      path: '/vars.txt',
      old_string: '= 1',
      new_string: '= 22',
      replace_all: true,
    });
    expect(message.content).toBe('Edited /vars.txt: replaced 3 occurrences (21 bytes)');
    expect(await t.text('/vars.txt')).toBe('x = 22\ny = 22\nz = 22\n');
  });

  it('LOCK-2: CRLF line endings are preserved when the model sends LF, and so are a BOM and the mime type', async () => {
    const t = fsHarness();
    await t.h.files.write('/win.txt', '\uFEFFone\r\ntwo\r\nthree\r\n', { mimeType: 'text/x-custom' });
    const message = await t.call('edit', {
      path: '/win.txt',
      old_string: 'one\ntwo\n',
      new_string: 'uno\ndos\nmas\n',
    });
    expect(message.tool_status).toBe('success');
    expect(await t.text('/win.txt')).toBe('\uFEFFuno\r\ndos\r\nmas\r\nthree\r\n');
    expect((await t.h.files.stat('/win.txt'))?.mimeType).toBe('text/x-custom');
    // A file with LF endings is written with LF.
    await t.put('/unix.txt', 'one\ntwo\n');
    await t.call('edit', { path: '/unix.txt', old_string: 'one\n', new_string: 'a\nb\n' });
    expect(await t.text('/unix.txt')).toBe('a\nb\ntwo\n');
  });
});

describe('glob', () => {
  it('LOCK-1: glob lists matching paths sorted, relative to path or from the root', async () => {
    const t = fsHarness();
    for (const path of ['/src/b.ts', '/src/a.ts', '/src/lib/c.ts', '/src/readme.md', '/docs/x.ts']) {
      await t.put(path, 'x');
    }
    expect((await t.call('glob', { pattern: '**/*.ts' })).content).toBe(
      '/docs/x.ts\n/src/a.ts\n/src/b.ts\n/src/lib/c.ts',
    );
    expect((await t.call('glob', { pattern: '*.ts', path: '/src' })).content).toBe('/src/a.ts\n/src/b.ts');
    expect((await t.call('glob', { pattern: '/docs/*', path: '/src' })).content).toBe('/docs/x.ts');
    expect((await t.call('glob', { pattern: '*.py' })).content).toBe('No files match /*.py');
  });

  it('LOCK-6: a glob of 1,001 entries shows 1,000, marks the envelope truncated and the sidecar lists all 1,001', async () => {
    const t = fsHarness();
    const paths = Array.from({ length: 1001 }, (_, index) => `/many/f${String(index).padStart(4, '0')}.txt`);
    for (const path of paths) await t.put(path, '');
    const message = await t.call('glob', { pattern: 'many/*.txt' }, 'call_glob_1');
    const lines = message.content.split('\n');
    expect(lines.slice(0, 1000)).toEqual(paths.slice(0, 1000));
    expect(lines[1000]).toBe(
      '[Output truncated: showing the first 1000 of 1001 entries. The full output is in /.tool-output/glob-call_glob_1.txt; page through it with read (offset, limit).]',
    );
    expect(lines).toHaveLength(1001);
    expect(message.envelope).toMatchObject({
      type: 'output',
      data: {
        head: paths.slice(0, 1000).join('\n'),
        truncated: true,
        output_path: '/.tool-output/glob-call_glob_1.txt',
      },
      metadata: { truncated: true, output_path: '/.tool-output/glob-call_glob_1.txt' },
    });
    expect(await t.text('/.tool-output/glob-call_glob_1.txt')).toBe(paths.join('\n'));
  });
});

describe('grep', () => {
  it('LOCK-1: grep reports sorted path:line:text matches, filtered by path, glob and case', async () => {
    const t = fsHarness();
    await t.put('/src/z.ts', 'const Alpha = 1;\r\nconst beta = 2;\r\n');
    await t.put('/src/a.ts', 'alpha();\n// nothing\nALPHA\n');
    await t.put('/src/notes.md', 'alpha in prose\n');
    await t.put('/other/a.ts', 'alpha elsewhere\n');
    await t.put('/src/blob.bin', new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0]));
    expect((await t.call('grep', { pattern: 'alpha', path: '/src' })).content).toBe(
      '/src/a.ts:1:alpha();\n/src/notes.md:1:alpha in prose',
    );
    expect((await t.call('grep', { pattern: '^(const )?alpha', case_insensitive: true, glob: '*.ts' })).content).toBe(
      '/other/a.ts:1:alpha elsewhere\n/src/a.ts:1:alpha();\n/src/a.ts:3:ALPHA\n/src/z.ts:1:const Alpha = 1;',
    );
    expect((await t.call('grep', { pattern: 'beta\\b', path: '/src/z.ts' })).content).toBe(
      '/src/z.ts:2:const beta = 2;',
    );
    expect((await t.call('grep', { pattern: 'omega' })).content).toBe('No matches for /omega/ under /');
    expect((await t.call('grep', { pattern: 'a', path: '/none' })).content).toBe('Error: No file or folder at /none');
  });

  it('LOCK-1: grep with an invalid regular expression fails clearly', async () => {
    const t = fsHarness();
    const message = await t.call('grep', { pattern: 'foo(' });
    expect(message).toMatchObject({ tool_status: 'error' });
    expect(message.content).toMatch(/^Error: invalid regular expression "foo\(": .*(Unterminated group|unterminated)/i);
  });

  it('LOCK-6: over 200 matches, grep shows the first 200 and the sidecar holds every match; later searches skip sidecars', async () => {
    const t = fsHarness();
    const lines = Array.from({ length: 250 }, (_, index) => `match ${index + 1}`);
    await t.put('/log.txt', lines.join('\n'));
    const message = await t.call('grep', { pattern: 'match' }, 'call_grep_1');
    const expected = lines.map((line, index) => `/log.txt:${index + 1}:${line}`);
    expect(message.content).toBe(
      `${expected.slice(0, 200).join('\n')}\n[Output truncated: showing the first 200 of 250 entries. The full output is in /.tool-output/grep-call_grep_1.txt; page through it with read (offset, limit).]`,
    );
    expect(message.envelope?.metadata).toMatchObject({
      truncated: true,
      output_path: '/.tool-output/grep-call_grep_1.txt',
    });
    expect(await t.text('/.tool-output/grep-call_grep_1.txt')).toBe(expected.join('\n'));
    // Sidecars are searched only when asked for, so the next search is not padded by this one.
    const again = await t.call('grep', { pattern: 'match 250$' });
    expect(again.content).toBe('/log.txt:250:match 250');
    const inside = await t.call('grep', { pattern: 'match 250$', path: '/.tool-output' });
    expect(inside.content).toBe('/.tool-output/grep-call_grep_1.txt:250:/log.txt:250:match 250');
    expect((await t.call('glob', { pattern: '**/*' })).content).toBe('/log.txt');
    expect((await t.call('glob', { pattern: '*', path: '/.tool-output' })).content).toBe(
      '/.tool-output/grep-call_grep_1.txt',
    );
  });
});

describe('todo', () => {
  it('LOCK-1: todo replaces the thread list, persisted in the key-value store across calls, and renders it', async () => {
    const t = fsHarness();
    const first = [
      { content: 'Read the spec', status: 'completed' },
      { content: 'Write the tools', status: 'in_progress' },
      { content: 'Test them', status: 'pending' },
    ];
    const message = await t.call('todo', { todos: first });
    expect(message.content).toBe('[x] Read the spec\n[~] Write the tools\n[ ] Test them\n(1 of 3 completed)');
    expect(await t.h.state().getValue(TODO_KEY)).toEqual(first);
    const second = [{ content: 'Test them', status: 'completed' }];
    expect((await t.call('todo', { todos: second })).content).toBe('[x] Test them\n(1 of 1 completed)');
    expect(await t.h.state().getValue(TODO_KEY)).toEqual(second);
    // A thread restarted on the same storage reads the same list.
    const restarted = createHarness({ builtinTools, store: t.h.store, prompt: { tools: ['todo'] } });
    expect(await restarted.state().getValue(TODO_KEY)).toEqual(second);
    expect((await t.call('todo', { todos: [] })).content).toBe('The todo list is empty.');
    const invalid = await t.call('todo', { todos: [{ content: 'x', status: 'done' }] });
    expect(invalid).toMatchObject({ tool_status: 'error' });
    expect(await t.h.state().getValue(TODO_KEY)).toEqual([]);
  });
});

describe('read rows', () => {
  it('LOCK-6: a line longer than 64 KB is shown as rows of at most 64 KB, continuations numbered N+', async () => {
    const t = fsHarness();
    const long = '€'.repeat(30_000); // 90,000 bytes
    await t.put('/wide.txt', `short\n${long}\nend`);
    const message = await t.call('read', { path: '/wide.txt' });
    const lines = message.content.split('\n');
    expect(lines[0]).toBe('     1\tshort');
    expect(lines[1]?.startsWith('     2\t€')).toBe(true);
    expect(lines[2]?.startsWith('     2+\t€')).toBe(true);
    expect(lines[3]).toBe('     3\tend');
    const rowBytes = (line: string) => encoder.encode(line.slice(line.indexOf('\t') + 1)).byteLength;
    expect(rowBytes(lines[1] as string)).toBeLessThanOrEqual(READ_MAX_ROW_BYTES);
    expect(rowBytes(lines[1] as string) + rowBytes(lines[2] as string)).toBe(90_000);
  });
});

describe('read by byte ranges', () => {
  it('BYTES-1: hostile byte ranges are refused, past the end, or whole lines; the file is unchanged', async () => {
    const t = fsHarness();
    await t.put('/ranges.txt', READ_RANGE_FILE);
    const lines = READ_RANGE_FILE.split('\n');
    for (const range of HOSTILE_READ_RANGES) {
      const args = {
        path: '/ranges.txt',
        offset: range.offset,
        ...(range.limit === undefined ? {} : { limit: range.limit }),
      };
      const message = await t.call('read', args);
      if (range.outcome === 'refused') {
        expect(message.tool_status, range.label).toBe('error');
        expect(message.content, range.label).toMatch(/offset|limit/);
        expect(message.content, range.label).not.toContain('\t');
      } else if (range.outcome === 'past_end') {
        expect(message.content, range.label).toBe(
          `Error: offset ${range.offset} is past the end of the file, which has 15 bytes`,
        );
      } else {
        const first = range.firstLine as number;
        const shown = message.content.split('\n').filter((line) => /^ +\d+\t/.test(line));
        expect(shown[0], range.label).toBe(`${String(first).padStart(6)}\t${lines[first - 1]}`);
        for (const line of shown) expect(line, range.label).not.toContain('\uFFFD');
      }
    }
    expect(await t.text('/ranges.txt')).toBe(READ_RANGE_FILE);
  });
});
