/**
 * ATT-3: every thread path is normalised and confined to the thread's root; hostile paths are
 * refused with a PathError that says why, and nothing is written.
 */
import { defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { ThreadFiles } from '../../../../src/engine/files/thread-files.js';
import {
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  normalizeThreadPath,
  PathError,
} from '../../../../src/engine/files/thread-path.js';
import {
  EQUIVALENT_SPELLINGS,
  INVISIBLE_REASON,
  invalidPaths,
  invisiblePaths,
  LOOK_ALIKE_NAMES,
} from '../../../support/hostile-corpus.js';
import { createHarness, MemoryFileStore } from '../../../support/memory-store.js';

describe('ATT-3: hostile paths are refused', () => {
  for (const { label, path: input, reason } of [...invalidPaths('x.txt'), ...invisiblePaths('x.txt')]) {
    it(`ATT-3: ${label} (${JSON.stringify(input.slice(0, 40))}) throws a PathError`, () => {
      let caught: unknown;
      try {
        normalizeThreadPath(input);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PathError);
      expect((caught as PathError).message).toMatch(/^invalid path /);
      expect((caught as PathError).message).toMatch(reason);
    });
  }

  it('ATT-3: a non-string path throws a PathError', () => {
    expect(() => normalizeThreadPath(42 as unknown as string)).toThrow(PathError);
  });
});

describe('ATT-3: normal paths are normalised', () => {
  const CASES: Array<[string, string]> = [
    ['/', '/'],
    ['', '/'],
    ['.', '/'],
    ['//', '/'],
    ['./', '/'],
    ['a', '/a'],
    ['a/b.txt', '/a/b.txt'],
    ['/a/b.txt', '/a/b.txt'],
    ['a//b/./c', '/a/b/c'],
    ['./a/b/', '/a/b'],
    ['///a///b///', '/a/b'],
    ['notes/...txt', '/notes/...txt'],
    ['dir/file..name', '/dir/file..name'],
    ['reports/Q1 2024 (final).pdf', '/reports/Q1 2024 (final).pdf'],
    ['données/résumé.txt', '/données/résumé.txt'],
    ['100%.txt', '/100%.txt'],
  ];
  for (const [input, expected] of CASES) {
    it(`ATT-3: ${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      expect(normalizeThreadPath(input)).toBe(expected);
    });
  }

  it('ATT-3: a name of exactly 255 bytes and a path of exactly 900 bytes are accepted', () => {
    const name = 'n'.repeat(MAX_SEGMENT_BYTES);
    expect(normalizeThreadPath(name)).toBe(`/${name}`);
    const segment = 'p'.repeat(99); // "/" + 99 = 100 bytes per segment
    const path = `/${segment}`.repeat(MAX_PATH_BYTES / 100);
    expect(new TextEncoder().encode(path).byteLength).toBe(MAX_PATH_BYTES);
    expect(normalizeThreadPath(path)).toBe(path);
    expect(() => normalizeThreadPath(`${path}x`)).toThrow(PathError);
  });

  it('ATT-3: normalising is idempotent', () => {
    for (const [, expected] of CASES) expect(normalizeThreadPath(expected)).toBe(expected);
  });
});

describe('ATT-3: the thread filesystem refuses hostile paths', () => {
  it('ATT-3: ThreadFiles.write refuses every hostile path and stores nothing', async () => {
    const store = new MemoryFileStore();
    const files = new ThreadFiles(store);
    for (const { path: input } of [...invalidPaths('x.txt'), ...invisiblePaths('x.txt')]) {
      await expect(files.write(input, 'pwned')).rejects.toBeInstanceOf(PathError);
    }
    expect(store.paths()).toEqual([]);
  });

  it('ATT-3: ThreadFiles.write refuses the root itself', async () => {
    const store = new MemoryFileStore();
    await expect(new ThreadFiles(store).write('/', 'x')).rejects.toThrow(/root/);
    expect(store.paths()).toEqual([]);
  });

  it('ATT-3: read, stat, unlink, readdir and grep refuse hostile paths too', async () => {
    const files = new ThreadFiles(new MemoryFileStore());
    await files.write('/safe.txt', 'ok');
    // Wrapped in async functions: stat and unlink throw synchronously rather than rejecting.
    const refusals = [
      () => files.read('../safe.txt'),
      () => files.stat('%2e%2e/safe.txt'),
      () => files.unlink('..\\safe.txt'),
      () => files.readdir('a/../..'),
      () => files.grep('ok', { path: '/..' }),
      () => files.find('**'),
    ];
    const outcomes = await Promise.allSettled(refusals.map(async (attempt) => attempt()));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    for (const outcome of outcomes.slice(0, 5)) {
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(PathError);
    }
    expect(await files.read('safe.txt')).toEqual(new TextEncoder().encode('ok'));
  });

  it('ATT-3: a tool writing to a hostile path gets a clear error tool message and nothing is written', async () => {
    const save = defineTool({
      description: 'Saves a file.',
      execute: async (state) => {
        await state.writeFile('../../outside.txt', 'escaped');
        return { status: 'success', result: 'saved' };
      },
    });
    const h = createHarness({ tools: { save }, script: [{ toolCalls: [{ name: 'save' }] }, { text: 'ok' }] });
    expect(await h.send('save it')).toEqual({ kind: 'done', reason: 'response' });
    const [result] = h.byRole('tool');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('invalid path');
    expect(result?.content).toContain('".." segments are not allowed');
    expect(h.fileStore.paths()).toEqual([]);
  });
});

describe('ATT-3: one Unicode form (NFC) for every path', () => {
  for (const { label, nfc, other } of EQUIVALENT_SPELLINGS) {
    it(`ATT-3: ${label}: both spellings are /${nfc}/key.txt`, () => {
      expect(normalizeThreadPath(`${other}/key.txt`)).toBe(`/${nfc}/key.txt`);
      expect(normalizeThreadPath(`/${nfc}//key.txt`)).toBe(`/${nfc}/key.txt`);
    });
  }

  it('ATT-3: the thread filesystem stores, reads and lists a file under its NFC name whichever spelling wrote it', async () => {
    const store = new MemoryFileStore();
    const files = new ThreadFiles(store);
    for (const { other } of EQUIVALENT_SPELLINGS) await files.write(`/${other}/key.txt`, other);
    expect(store.paths().sort()).toEqual(EQUIVALENT_SPELLINGS.map(({ nfc }) => `/${nfc}/key.txt`).sort());
    for (const { nfc, other } of EQUIVALENT_SPELLINGS) {
      expect(new TextDecoder().decode((await files.read(`/${nfc}/key.txt`)) ?? undefined)).toBe(other);
      expect((await files.readdir(`/${other}`)).map((entry) => entry.path)).toEqual([`/${nfc}/key.txt`]);
      expect(await files.find(`${other}/*`)).toEqual([`/${nfc}/key.txt`]);
    }
  });

  for (const { label, name } of LOOK_ALIKE_NAMES) {
    it(`ATT-3: ${label} (${name}) is kept as written: NFC does not fold compatibility characters`, () => {
      expect(normalizeThreadPath(`${name}/key.txt`)).toBe(`/${name}/key.txt`);
    });
  }

  it('ATT-3: the refusal of an invisible character names its code point', () => {
    expect(() => normalizeThreadPath('docs/\u202etxt.exe')).toThrow(INVISIBLE_REASON);
    expect(() => normalizeThreadPath('docs/\u202etxt.exe')).toThrow('(U+202E)');
    expect(() => normalizeThreadPath('docs/a\u{e0061}')).toThrow('(U+E0061)');
  });
});
