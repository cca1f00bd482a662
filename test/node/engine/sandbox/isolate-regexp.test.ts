/**
 * A sandboxed program's regexes on the linear-time engine (isolate-regexp.ts), in a fresh V8 realm
 * (node:vm) set up as main.js sets up an isolate: the engine installed, the program instrumented (its
 * regex literals rewritten). Ordinary regex code gives what JavaScript's own RegExp gives; every road
 * of the hostile corpus to the backtracking matcher is answered at once; what the engine does is
 * counted in guard ticks; and the engine's text is what scripts/isolate-re2js.mjs makes of the pinned
 * re2js.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadProgramCompilers } from '../../../../src/engine/sandbox/index.js';
import { instrumentCode } from '../../../../src/engine/sandbox/instrument.js';
import { LINEAR_REGEXP_SOURCE } from '../../../../src/engine/sandbox/isolate-regexp.js';
import { CATASTROPHIC_PROGRAMS, CATASTROPHIC_REGEXES } from '../../../support/hostile-corpus.js';

// The compilers load on first use (as runProgram loads them); the tests call the preparation directly.
await loadProgramCompilers();

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const GUARD = '__test_guard';
const MAX_TICKS = 2_000_000;

type Program = (input: unknown) => Promise<unknown>;

/** A realm with the linear-time RegExp installed, as main.js installs it, and its guard's tick count. */
function linearRealm() {
  const context = createContext({});
  runInContext(
    `'use strict';
    const apply = Reflect.apply;
    const construct = Reflect.construct;
    const defineProperty = Object.defineProperty;
    const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
    const toText = String;
    let ticks = 0;
    // As main.js's guard: a tick per call, and what a spread hands it handed back.
    function guard(spread) {
      ticks += 1;
      if (ticks > ${MAX_TICKS}) throw new Error('over the tick limit');
      return spread;
    }
    defineProperty(globalThis, '${GUARD}', { value: guard });
    defineProperty(globalThis, '__ticks', { value: () => ticks });
    ${LINEAR_REGEXP_SOURCE}`,
    context,
  );
  const program = (code: string): Program => {
    const instrumented = instrumentCode(code, {
      guard: GUARD,
      emittedName: 'program.js',
      modules: new Map(),
      isProgram: true,
    });
    if (!('code' in instrumented)) throw new Error(instrumented.message);
    return runInContext(`(async function (input) {\n${instrumented.code}\n})`, context) as Program;
  };
  return { program, ticks: () => runInContext('__ticks()', context) as number };
}

/** The same program on JavaScript's own RegExp, in a realm of its own. */
function nativeProgram(code: string): Program {
  return runInContext(`(async function (input) {\n${code}\n})`, createContext({})) as Program;
}

/** A program's outcome as comparable data: its value as JSON, or the kind of error it threw. */
async function outcome(program: Program, input: unknown): Promise<string> {
  try {
    return JSON.stringify(await program(input)) ?? 'undefined';
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

const ORDINARY = [
  "return 'a-b_c d'.replace(/[-_ ]/g, '.');",
  "return 'John Smith'.replace(/(\\w+)\\s(\\w+)/, '$2, $1');",
  "return '2024-05-01'.replace(/(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)/, '$<d>/$<m>/$<y>');",
  "return 'aaa'.replace(/a*?/g, '-');",
  "return 'x1y22z333'.replace(/\\d+/g, (m, offset) => '[' + m.length + '@' + offset + ']');",
  "return 'one  two\\tthree'.split(/\\s+/);",
  "return 'a1b2c3'.split(/(\\d)/);",
  "return 'a1b2c3'.split(/\\d/, 2);",
  "return ''.split(/,/);",
  "return 'abc'.split(/(?:)/);",
  "return [...'a1b22c333'.matchAll(/\\d+/g)].map((m) => [m[0], m.index]);",
  "return 'The Quick Brown'.match(/[A-Z]/g);",
  "const m = 'key=value'.match(/(?<k>\\w+)=(?<v>\\w+)/); return [m.index, m[1], m.groups.k, m.groups.v, m.input];",
  "return ['abc'.search(/c/), 'abc'.search(/z/)];",
  "const r = /o/g; const seen = []; let m; while ((m = r.exec('foo boo')) !== null) seen.push([m.index, r.lastIndex]); return seen;",
  "const r = /a/y; return [r.test('ba'), r.lastIndex, (r.lastIndex = 1, r.test('ba')), r.lastIndex];",
  "return 'HeLLo'.replace(/l/gi, 'L');",
  "return /^b$/m.test('a\\nb\\nc');",
  "return /a.c/s.test('a\\nc');",
  "return [String(/a\\/b/gi), new RegExp('a/b', 'g').source, RegExp('x').flags, /x/dgimsuy.flags];",
  "return new RegExp(/ab+/i, 'g').toString();",
  "const m = /(a)(z)?/d.exec('xa'); return [m.indices[0], m.indices[1], m[2]];",
  "return 'ab'.replaceAll(/b/g, 'c');",
  "return '😀a😀'.replace(/a/u, 'b');",
  "return /\\p{Lu}/u.test('É');",
  "return 'cost $42 and $7'.match(/(?<=\\$)\\d+/g);",
  "class Word extends RegExp { constructor() { super('\\\\w+', 'g'); } }\nreturn 'hi there'.match(new Word());",
  'return RegExp.prototype.toString.call(/x/g);',
  "try { new RegExp('('); return 'no'; } catch (e) { return e.name; }",
];

describe('a program on the linear-time RegExp', () => {
  it('gets what JavaScript gives for ordinary regex code', async () => {
    const realm = linearRealm();
    for (const code of ORDINARY) {
      expect(await outcome(realm.program(code), null), code).toBe(await outcome(nativeProgram(code), null));
    }
  });

  it('answers every road of the hostile corpus to the backtracking matcher at once', async () => {
    const line = CATASTROPHIC_REGEXES[0]?.line as string;
    for (const entry of CATASTROPHIC_PROGRAMS) {
      const realm = linearRealm();
      const answer = await outcome(realm.program(entry.code), line);
      if (entry.label === 'a lookahead') expect(answer, entry.label).toBe('throws SyntaxError');
      else expect(answer, entry.label).not.toMatch(/^throws Error/);
    }
  });

  it('refuses a lookahead and a backreference with an error naming them', async () => {
    const realm = linearRealm();
    await expect(realm.program("return new RegExp('a(?=b)');")(null)).rejects.toThrow(
      /lookahead \(\?=\.\.\.\) is not supported/,
    );
    await expect(realm.program('return /(a)\\1/;')(null)).rejects.toThrow(/backreference \(\\1\) is not supported/);
    await expect(realm.program("return /x/.compile('y');")(null)).rejects.toThrow(/compile is not available/);
  });

  it('counts the engine’s work in guard ticks, so a run’s limits bound it', async () => {
    const realm = linearRealm();
    const before = realm.ticks();
    await realm.program("return 'ab '.repeat(100000).replace(/(\\w+\\s?)*$/g, '').length;")(null);
    expect(realm.ticks() - before).toBeGreaterThan(10_000);
  });
});

describe('the engine text', () => {
  it('is what scripts/isolate-re2js.mjs makes of the installed re2js', async () => {
    const script = (await import(pathToFileURL(join(ROOT, 'scripts', 'isolate-re2js.mjs')).href)) as {
      isolateRe2jsModule(): Promise<string>;
    };
    const committed = readFileSync(join(ROOT, 'src', 'engine', 'sandbox', 'isolate-re2js.ts'), 'utf8');
    expect(committed === (await script.isolateRe2jsModule())).toBe(true);
  });
});
