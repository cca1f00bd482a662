/**
 * CODE-1, the pure half of sandboxed code: a program made ready for its isolate (types stripped with
 * its lines kept, a guard at the start of every loop and function body, imports pointed at the
 * emitted modules and everything else refused with the user's file and line), and the TypeScript
 * declarations a model is shown for its tools. The isolate itself is exercised in
 * test/workers/sandbox-isolate.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  loadProgramCompilers,
  MAX_MODULES,
  type PreparedProgram,
  type ProgramInput,
  type ProgramSyntaxError,
  prepareProgram,
  randomGuardName,
  sandboxMainModule,
  toolDeclarations,
} from '../../../../src/engine/sandbox/index.js';
import { argumentsJsonSchema } from '../../../../src/spec/index.js';

// The compilers load on first use (as runProgram loads them); the tests call the preparation directly.
await loadProgramCompilers();

const G = '__sa_guard_test';

function prepared(input: Omit<ProgramInput, 'guard'>): PreparedProgram {
  const result = prepareProgram({ ...input, guard: G });
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result;
}

function refused(input: Omit<ProgramInput, 'guard'>): ProgramSyntaxError {
  const result = prepareProgram({ ...input, guard: G });
  if (result.ok) throw new Error('expected the program to be refused');
  return result;
}

/** The program's body as the user wrote it, line for line: the wrapper's prefix and suffix removed. */
function body(program: PreparedProgram): string[] {
  const text = program.modules['program.js'] ?? '';
  return text.slice(program.programPrefixLength).split('\n');
}

describe('prepareProgram: the program', () => {
  it('CODE-1: TypeScript is stripped and every line stays where the user wrote it', () => {
    const program = prepared({
      source: [
        'interface Point { x: number; y: number }',
        'type Id = string;',
        'const p: Point = { x: 1, y: 2 } as Point;',
        'function norm(q: Point): number {',
        '  return Math.hypot(q.x, q.y);',
        '}',
        'return norm(p) satisfies number;',
      ].join('\n'),
    });
    const lines = body(program);
    expect(lines.slice(0, 7)).toEqual([
      '',
      '',
      'const p = { x: 1, y: 2 } ;',
      `function norm(q) {${G}();`,
      '  return Math.hypot(q.x, q.y);',
      '}',
      'return norm(p) ;',
    ]);
  });

  it('CODE-1: the wrapper is one line before the user line 1, an async function of input, tools and files', () => {
    const program = prepared({ source: 'return input' });
    const text = program.modules['program.js'] ?? '';
    const prefix = text.slice(0, program.programPrefixLength);
    expect(prefix).not.toContain('\n');
    expect(prefix).toContain('export default async function __program(input, tools, files)');
    expect(text.slice(program.programPrefixLength)).toBe('return input\n})(); }\n');
    expect(program.fileNames).toEqual({ 'program.js': 'program' });
    expect(program.guard).toBe(G);
  });

  it('CODE-1: the body has a scope of its own, so `const input = 1` is no redeclaration', () => {
    const program = prepared({ source: 'const input = 1;\nlet tools = 2;\nreturn input + tools;' });
    expect(body(program)[0]).toBe('const input = 1;');
  });

  it('CODE-1: a guard call starts every loop body; a body that is no block is wrapped in one', () => {
    const lines = body(
      prepared({
        source: [
          'for (let i = 0; i < 3; i++) { a(i) }',
          'for (const k in o) b(k);',
          'for await (const v of it) c(v)',
          'while (x) y();',
          'do z(); while (w)',
          'outer: for (;;) for (;;) continue outer;',
          'while (q);',
        ].join('\n'),
      }),
    );
    expect(lines.slice(0, 7)).toEqual([
      `for (let i = 0; i < 3; i++) {${G}(); a(i) }`,
      `for (const k in o) {${G}();b(k);}`,
      `for await (const v of it) {${G}();c(v)}`,
      `while (x) {${G}();y();}`,
      `do {${G}();z();} while (w)`,
      `outer: for (;;) {${G}();for (;;) {${G}();continue outer;}}`,
      `while (q){${G}();;}`,
    ]);
  });

  it('CODE-1: a guard call starts every function body: declarations, expressions, methods, accessors, constructors, arrows; an async one also charges its pending call', () => {
    const lines = body(
      prepared({
        source: [
          'function a() { return 1 }',
          'const b = function () {}, c = async function* () { yield 1 };',
          'class D extends E { constructor() { super() } m() {} get g() { return 1 } set s(v) {} static async n() {} }',
          'const o = { p() {}, get q() { return 2 } };',
          'const f = (x) => x + 1, h = async () => ({ k: 1 }), i = () => { return 3 };',
          'const curried = a => b => a + b;',
        ].join('\n'),
      }),
    );
    expect(lines.slice(0, 6)).toEqual([
      `function a() {${G}(); return 1 }`,
      `const b = function () {${G}();}, c = async function* () {${G}.asyncCall(); yield 1 };`,
      `class D extends E { constructor() {${G}(); super() } m() {${G}();} get g() {${G}(); return 1 } set s(v) {${G}();} static async n() {${G}.asyncCall();} }`,
      `const o = { p() {${G}();}, get q() {${G}(); return 2 } };`,
      `const f = (x) => (${G}(), x + 1), h = async () => ((${G}.asyncCall(), { k: 1 })), i = () => {${G}(); return 3 };`,
      `const curried = a => (${G}(), b => (${G}(), a + b));`,
    ]);
  });

  it('CODE-1: what a spread copies passes through the guard, which charges it to the memory ledger', () => {
    const lines = body(prepared({ source: 'const b = [...a, ...f(a)];\nconst o = { ...p };\ng(...args);' }));
    expect(lines.slice(0, 3)).toEqual([
      `const b = [...${G}(a), ...${G}(f(a))];`,
      `const o = { ...${G}(p) };`,
      `g(...${G}(args));`,
    ]);
  });

  it('CODE-1: a fresh guard name is random per run and an identifier', () => {
    const first = randomGuardName();
    expect(first).toMatch(/^__sa_guard_[0-9a-f]{16}$/);
    expect(randomGuardName()).not.toBe(first);
    const program = prepareProgram({ source: 'while (true) {}' });
    expect(program.ok && program.modules['program.js']).toContain(`${program.ok && program.guard}();`);
    expect(() => prepareProgram({ source: '', guard: 'not an identifier' })).toThrow(TypeError);
  });
});

describe('prepareProgram: modules and imports', () => {
  const modules = {
    'util.ts': 'export const twice = (n: number): number => n * 2;',
    'lib/math.mjs': "import { twice } from '../util';\nexport function quad(n) { return twice(twice(n)); }",
    'lib/more.js': "export * from './math.js';\nexport { twice } from '../util.ts';",
  };

  it('CODE-1: modules are emitted under .js names, their types stripped and their bodies guarded', () => {
    const program = prepared({ source: 'return 1', modules });
    expect(Object.keys(program.modules).sort()).toEqual(['lib/math.js', 'lib/more.js', 'program.js', 'util.js']);
    expect(program.modules['util.js']).toBe(`export const twice = (n) => (${G}(), n * 2);`);
    expect(program.modules['lib/math.js']).toBe(
      `import { twice } from "../util.js";\nexport function quad(n) {${G}(); return twice(twice(n)); }`,
    );
    expect(program.modules['lib/more.js']).toBe('export * from "./math.js";\nexport { twice } from "../util.js";');
    expect(program.fileNames).toEqual({
      'program.js': 'program',
      'util.js': 'util.ts',
      'lib/math.js': 'lib/math.mjs',
      'lib/more.js': 'lib/more.js',
    });
  });

  it('CODE-1: the program imports by any spelling of a name; imports are blanked in place and hoisted after the body', () => {
    const program = prepared({
      source: [
        "import { twice } from './util';",
        "import { quad } from './lib/math.mjs';",
        "import * as more from './lib/more.js';",
        'const m = await import("./util.ts");',
        'return quad(twice(1)) + more.twice(m.twice(1));',
      ].join('\n'),
      modules,
    });
    const lines = body(program);
    expect(lines[0]?.trim()).toBe('');
    expect(lines[1]?.trim()).toBe('');
    expect(lines[2]?.trim()).toBe('');
    expect(lines[3]).toBe('const m = await import("./util.js");');
    expect(lines.slice(5)).toEqual([
      '})(); }',
      'import { twice } from "./util.js";',
      'import { quad } from "./lib/math.js";',
      'import * as more from "./lib/more.js";',
      '',
    ]);
  });

  it("CODE-1: a TypeScript program's type-only imports are elided, so an interface can be imported", () => {
    const program = prepared({
      source: "import { Shape, area } from './shapes';\nconst s: Shape = { w: 2 };\nreturn area(s);",
      modules: { 'shapes.ts': 'export interface Shape { w: number }\nexport const area = (s: Shape) => s.w * s.w;' },
    });
    expect(program.modules['program.js']).toContain('import { area } from "./shapes.js";');
    expect(program.modules['shapes.js']).toBe(`\nexport const area = (s) => (${G}(), s.w * s.w);`);
  });

  it.each([
    ["import _ from 'lodash';", 'cannot import "lodash": only the modules given with the program can be imported'],
    ["import { readFile } from 'node:fs';", 'cannot import "node:fs"'],
    ["import { env } from 'cloudflare:workers';", 'cannot import "cloudflare:workers"'],
    ["import x from 'https://example.com/x.js';", 'cannot import "https://example.com/x.js"'],
    ["import x from './missing';", 'cannot import "./missing": no module of that name was given with the program'],
    ["import x from '../outside';", 'cannot import "../outside": no module of that name'],
    ["import x from './main.js';", 'cannot import "./main.js": no module of that name'],
    ["const m = await import('node:fs');", 'cannot import "node:fs"'],
    [
      "const name = './util'; const m = await import(name);",
      'import() needs a string literal naming one of the modules',
    ],
    ['export const x = 1;', 'the program cannot export anything'],
    ['export default 1;', 'the program cannot export anything'],
  ])('CODE-1: the program line `%s` is refused with the file and line', (line, message) => {
    const error = refused({ source: `const ok = 1;\n${line}`, modules: { 'util.ts': 'export const u = 1;' } });
    expect(error.file).toBe('program');
    expect(error.line).toBe(2);
    expect(error.error).toContain(message);
  });

  it('CODE-1: an import a module may not make is reported in that module, by its name', () => {
    const error = refused({ source: 'return 1', modules: { 'lib/a.ts': '// a\n\nexport * from "fs";' } });
    expect(error).toEqual({
      ok: false,
      error: expect.stringContaining('cannot import "fs"'),
      file: 'lib/a.ts',
      line: 3,
      column: 15,
    });
  });

  it.each([
    ['/abs.ts', 'must be relative'],
    ['../up.ts', 'segments'],
    ['a/./b.ts', 'segments'],
    ['a//b.ts', 'segments'],
    ['a b.ts', 'letters, digits'],
    ['quote".ts', 'letters, digits'],
    ['style.css', 'must end in .ts, .mts, .js or .mjs'],
    ['util', 'must end in'],
    ['main.js', 'taken by the sandbox'],
    ['program.ts', 'taken by the sandbox'],
  ])('CODE-1: the module name %s is refused', (name, message) => {
    const error = refused({ source: 'return 1', modules: { [name]: 'export {}' } });
    expect(error.file).toBe(name);
    expect(error.error).toContain(message);
    expect(error.line).toBeUndefined();
  });

  it('CODE-1: two modules that would load under one name are refused', () => {
    const error = refused({ source: '', modules: { 'util.ts': '', 'util.mjs': '' } });
    expect(error.error).toBe('modules "util.ts" and "util.mjs" would both be loaded as "util.js"');
  });

  it('CODE-1: sizes are bounded: the program and each module at 256 KiB, at most 20 modules', () => {
    const big = `// ${'x'.repeat(256 * 1024)}`;
    expect(refused({ source: big }).error).toBe('the program is larger than 256 KiB');
    expect(refused({ source: '', modules: { 'a.ts': big } })).toEqual({
      ok: false,
      error: 'module "a.ts" is larger than 256 KiB',
      file: 'a.ts',
    });
    // Multi-byte characters count as the bytes they take.
    expect(refused({ source: `// ${'é'.repeat(140 * 1024)}` }).error).toBe('the program is larger than 256 KiB');
    const many = Object.fromEntries(Array.from({ length: MAX_MODULES + 1 }, (_, i) => [`m${i}.ts`, '']));
    expect(refused({ source: '', modules: many }).error).toBe('a program may bring at most 20 modules, not 21');
    const enough = Object.fromEntries(Array.from({ length: MAX_MODULES }, (_, i) => [`m${i}.ts`, '']));
    expect(prepareProgram({ source: '', modules: enough }).ok).toBe(true);
  });
});

describe('prepareProgram: syntax errors', () => {
  it("CODE-1: a TypeScript syntax error names the user's file, line and column", () => {
    expect(refused({ source: 'const a = 1;\nconst b: = 2;' })).toEqual({
      ok: false,
      error: 'Unexpected token',
      file: 'program',
      line: 2,
      column: 10,
    });
  });

  it('CODE-1: a JavaScript syntax error found after stripping is reported the same way', () => {
    const error = refused({ source: 'let x = 1;\n\nlet x = 2;' });
    expect(error).toMatchObject({
      file: 'program',
      line: 3,
      error: expect.stringContaining("'x' has already been declared"),
    });
  });

  it('CODE-1: a syntax error in a module is reported by its name', () => {
    const error = refused({
      source: "import { f } from './f';\nreturn f();",
      modules: { 'f.js': 'export function f( {\n}' },
    });
    expect(error).toMatchObject({ ok: false, file: 'f.js', line: 2 });
  });

  it('CODE-1: a module may not `return` at its top level; the program may, and may `await`', () => {
    expect(refused({ source: '', modules: { 'r.ts': 'return 1;' } })).toMatchObject({ file: 'r.ts', line: 1 });
    expect(prepareProgram({ source: 'await 1;\nreturn 2;' }).ok).toBe(true);
  });
});

describe('sandboxMainModule', () => {
  it('CODE-1: the config is embedded as JSON, so a tool name cannot break out into code', () => {
    const main = sandboxMainModule({
      guard: G,
      modules: ['program.js'],
      toolNames: ["x'); globalThis.pwned = 1; ('"],
      files: false,
      timeoutMs: 1000,
    });
    expect(main).toContain(`"toolNames":["x'); globalThis.pwned = 1; ('"]`);
    expect(main).toContain("import { WorkerEntrypoint } from 'cloudflare:workers';");
    expect(main).toContain("await import('./program.js')");
    expect(main).not.toContain('eval(');
    expect(main).not.toContain('new Function');
  });

  it('CODE-1: a config no run could use is refused', () => {
    expect(() => sandboxMainModule({ guard: 'a b', modules: [], toolNames: [], files: false, timeoutMs: 1 })).toThrow(
      TypeError,
    );
    expect(() => sandboxMainModule({ guard: G, modules: [], toolNames: [], files: false, timeoutMs: 0 })).toThrow(
      RangeError,
    );
    expect(() =>
      sandboxMainModule({ guard: G, modules: [], toolNames: [], files: false, timeoutMs: 1, maxTicks: 1.5 }),
    ).toThrow(RangeError);
  });
});

describe('toolDeclarations', () => {
  const weather = z.object({
    city: z.string().describe('City name'),
    unit: z.enum(['c', 'f']).default('c'),
  });
  const search = z.object({
    query: z.string().min(1),
    limit: z.number().int().positive().optional().describe('At most this many results'),
    filters: z
      .object({
        tags: z.array(z.string()),
        since: z.string().nullable(),
        'content-type': z.literal('text').or(z.literal('image')).optional(),
      })
      .optional(),
  });
  const shapes = z.object({
    shape: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), radius: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]),
    point: z.tuple([z.number(), z.number()]),
    labels: z.record(z.string(), z.string()),
    either: z.array(z.union([z.string(), z.boolean()])),
    flag: z.boolean().nullish(),
    nothing: z.null(),
  });
  const Tree = z.object({
    name: z.string(),
    get children() {
      return z.array(Tree);
    },
  });

  it('CODE-1: zod schemas become argument types, descriptions JSDoc, defaults optional', () => {
    const declarations = toolDeclarations([
      { name: 'get_weather', description: 'Get the weather for a city', parameters: argumentsJsonSchema(weather) },
      { name: 'search', description: 'Search the */ web\nquickly', parameters: argumentsJsonSchema(search) },
      { name: 'draw', description: '', parameters: argumentsJsonSchema(shapes) },
      { name: 'now', description: 'The time.', parameters: argumentsJsonSchema(undefined) },
      { name: 'tree-walk', description: 'Walk a tree', parameters: argumentsJsonSchema(z.object({ tree: Tree })) },
    ]);
    expect(declarations).toBe(
      [
        'declare const input: unknown;',
        'declare const tools: {',
        '  /** Get the weather for a city */',
        '  get_weather(args: { /** City name */ city: string; /** (default: "c") */ unit?: "c" | "f" }): Promise<string>;',
        '  /** Search the *\\/ web quickly */',
        '  search(args: { query: string; /** At most this many results */ limit?: number; filters?: { tags: string[]; since: string | null; "content-type"?: "text" | "image" } }): Promise<string>;',
        '  draw(args: { shape: { kind: "circle"; radius: number } | { kind: "square"; side: number }; point: [number, number]; labels: { [key: string]: string }; either: (string | boolean)[]; flag?: boolean | null; nothing: null }): Promise<string>;',
        '  /** The time. */',
        '  now(args?: {}): Promise<string>;',
        '  /** Walk a tree */',
        '  "tree-walk"(args: { tree: unknown }): Promise<string>;',
        '};',
        '',
      ].join('\n'),
    );
  });

  it('CODE-1: files are declared only when the run grants them', () => {
    expect(toolDeclarations([])).toBe('declare const input: unknown;\ndeclare const tools: {};\n');
    const withFiles = toolDeclarations([], { files: true });
    expect(withFiles).toContain('declare const files: {');
    expect(withFiles).toContain('read(path: string): Promise<string>;');
    expect(withFiles).toContain('write(path: string, text: string): Promise<void>;');
  });

  it('CODE-1: plain JSON Schema keywords: type lists, allOf, const objects, open objects, boolean schemas', () => {
    const declarations = toolDeclarations([
      {
        name: 'raw',
        description: '',
        parameters: {
          type: 'object',
          properties: {
            a: { type: ['string', 'null'] },
            b: {
              allOf: [
                { type: 'object', properties: { x: { type: 'number' } } },
                { anyOf: [{ type: 'string' }, { type: 'number' }] },
              ],
            },
            c: { const: { nested: true } },
            d: { type: 'object' },
            e: true,
            f: { type: 'array' },
            g: { $ref: '#/$defs/Thing' },
          },
          required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
          additionalProperties: { type: 'integer' },
        },
      },
    ]);
    expect(declarations).toContain(
      '  raw(args: { a: string | null; b: { x?: number } & (string | number); c: unknown; d: { [key: string]: unknown }; e: unknown; f: unknown[]; g: unknown; [key: string]: number }): Promise<string>;',
    );
  });
});
