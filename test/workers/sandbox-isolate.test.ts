/**
 * CODE-1 in workerd: a prepared program run in an isolate of its own from the LOADER Worker Loader
 * binding, with the main module of sandboxMainModule. Local workerd enforces no CPU or memory limit
 * on a loaded isolate, so these prove that the sandbox's own instrumentation stops a runaway loop or
 * allocation (and that workerd is not wedged afterwards), that `stop()` ends a waiting run, and that
 * results, errors, logs and tool calls come back as data. Deadlines are generous: nothing here
 * depends on the machine's speed beyond finishing within the test's timeout.
 */
import { env, RpcTarget } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  loadProgramCompilers,
  type PreparedProgram,
  prepareProgram,
  type SandboxConfig,
  type SandboxEntrypoint,
  type SandboxOutcome,
  sandboxMainModule,
} from '../../src/engine/sandbox/index.js';

const loader = (env as unknown as { LOADER: WorkerLoader }).LOADER;

// The compilers load on first use (as runProgram loads them); the tests call the preparation directly.
await loadProgramCompilers();

/** The host side of the bridge, as the thread will offer it: tools and files over RPC. */
class TestHost extends RpcTarget {
  readonly calls: { name: string; args: unknown }[] = [];
  ticks = 0;
  private started: (() => void) | undefined;
  readonly programStarted = new Promise<void>((resolve) => {
    this.started = resolve;
  });

  async callTool(name: string, args: unknown): Promise<unknown> {
    this.calls.push({ name, args });
    switch (name) {
      case 'weather':
        return { city: (args as { city: string }).city, celsius: 21 };
      case 'fail':
        throw new Error('no such city: Atlantis');
      case 'started':
        this.started?.();
        return null;
      case 'tick':
        this.ticks += 1;
        return this.ticks;
      default:
        throw new Error(`unknown tool ${name}`);
    }
  }

  async readFile(path: string): Promise<string> {
    return `contents of ${path}`;
  }

  async writeFile(_path: string, _text: string): Promise<void> {}

  async listFiles(_path: string): Promise<unknown> {
    return ['a.txt'];
  }
}

type RunOptions = Partial<Omit<SandboxConfig, 'guard' | 'modules'>> & {
  modules?: Record<string, string>;
  input?: unknown;
};

function prepare(source: string, modules?: Record<string, string>): PreparedProgram {
  const prepared = prepareProgram({ source, modules });
  if (!prepared.ok) throw new Error(`refused: ${JSON.stringify(prepared)}`);
  return prepared;
}

/** A fresh isolate for the program, and its entrypoint. */
function load(source: string, options: RunOptions = {}): SandboxEntrypoint {
  const prepared = prepare(source, options.modules);
  const main = sandboxMainModule({
    guard: prepared.guard,
    modules: Object.keys(prepared.modules),
    toolNames: options.toolNames ?? ['weather', 'fail', 'started', 'tick'],
    files: options.files ?? false,
    // Within the test's own 30 s: a tick limit is reached long before, however slow the machine.
    timeoutMs: options.timeoutMs ?? 25_000,
    maxTicks: options.maxTicks,
    maxBusyMs: options.maxBusyMs,
    memoryBytes: options.memoryBytes,
    maxLogEntries: options.maxLogEntries,
    maxLogBytes: options.maxLogBytes,
    maxResultBytes: options.maxResultBytes,
  });
  const worker = loader.get(crypto.randomUUID(), () => ({
    compatibilityDate: '2026-04-20',
    mainModule: 'main.js',
    modules: { 'main.js': main, ...prepared.modules },
    globalOutbound: null,
  }));
  return worker.getEntrypoint() as unknown as SandboxEntrypoint;
}

async function run(source: string, options: RunOptions = {}, host = new TestHost()): Promise<SandboxOutcome> {
  return load(source, options).run(options.input ?? null, host);
}

function failed(outcome: SandboxOutcome): Extract<SandboxOutcome, { ok: false }> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('a program in its own isolate', () => {
  it('CODE-1: a returned value comes back as JSON text, nothing as null', async () => {
    expect(await run('return { sum: input.a + input.b, list: [1, "two", null] };', { input: { a: 1, b: 2 } })).toEqual({
      ok: true,
      result: '{"sum":3,"list":[1,"two",null]}',
      logs: [],
      logsDropped: 0,
    });
    expect(await run('const x = 1;')).toMatchObject({ ok: true, result: null });
  });

  it('CODE-1: a TypeScript program with a module runs; `const input` in the program is its own', async () => {
    const outcome = await run(
      [
        "import { area, type Shape } from './shapes';",
        'interface Box { shapes: Shape[] }',
        'const input: Box = { shapes: [{ w: 2 }, { w: 3 }] };',
        'const total: number = input.shapes.map(area).reduce((a, b) => a + b, 0);',
        'return total;',
      ].join('\n'),
      {
        modules: {
          'shapes.ts': 'export interface Shape { w: number }\nexport const area = (s: Shape): number => s.w * s.w;',
        },
      },
    );
    expect(outcome).toMatchObject({ ok: true, result: '13' });
  });

  it('CODE-1: a thrown error is data, with its line in the program', async () => {
    const outcome = failed(await run('const a = 1;\n\nif (a) throw new TypeError("bad input");'));
    expect(outcome).toMatchObject({ kind: 'thrown', error: 'TypeError: bad input', file: 'program.js', line: 3 });
  });

  it('CODE-1: an error thrown in a module is located in that module', async () => {
    const outcome = failed(
      await run("import { check } from './lib/check';\nreturn check(-1);", {
        modules: {
          'lib/check.ts':
            'export function check(n: number): number {\n  if (n < 0) throw new RangeError("negative");\n  return n;\n}',
        },
      }),
    );
    expect(outcome).toMatchObject({ kind: 'thrown', error: 'RangeError: negative', file: 'lib/check.js', line: 2 });
  });

  it('CODE-1: `while (true) {}` ends with kind limit (ticks), and workerd runs the next program', async () => {
    const outcome = failed(await run('let i = 0;\nwhile (true) { i++; }'));
    expect(outcome.kind).toBe('limit');
    expect(outcome.error).toBe('the program ran more than 10,000,000 loop iterations and function calls');
    expect(outcome).toMatchObject({ file: 'program.js', line: 2 });
    expect(await run('return "still here";')).toMatchObject({ ok: true, result: '"still here"' });
  });

  it('CODE-1: with ticks to spare, the wall clock stops a loop soon after its timeout', async () => {
    const started = Date.now();
    const outcome = failed(await run('while (true) {}', { timeoutMs: 300, maxTicks: Number.MAX_SAFE_INTEGER }));
    expect(outcome.kind).toBe('limit');
    expect(outcome.error).toBe('the program ran longer than its time limit of 300 ms');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await run('return 1 + 1;')).toMatchObject({ ok: true, result: '2' });
  });

  it('CODE-1: a program that only waits is ended by its timeout', async () => {
    const outcome = failed(await run('await new Promise(() => {});', { timeoutMs: 300 }));
    expect(outcome).toMatchObject({ kind: 'limit', error: 'the program ran longer than its time limit of 300 ms' });
  });

  it('CODE-1: a loop of built-ins that make few ticks ends once it has computed for maxBusyMs without a pause', async () => {
    const outcome = failed(
      await run('const a = new Float64Array(2e5).map(Math.random);\nfor (;;) a.sort();', { maxBusyMs: 300 }),
    );
    expect(outcome).toMatchObject({
      kind: 'limit',
      error: 'the program computed for more than 300 ms without pausing (awaiting a tool, a file or a timer)',
      line: 2,
    });
  });

  it('CODE-1: a program that pauses between its slices of work is not stopped for computing, however long it runs in all', async () => {
    const outcome = await run(
      [
        'const start = Date.now();',
        'while (Date.now() - start < 900) {',
        '  for (let i = 0; i < 1e5; i++) {}',
        '  await new Promise((resolve) => setTimeout(resolve, 0));',
        '}',
        'return "rested";',
      ].join('\n'),
      { maxBusyMs: 300, maxTicks: Number.MAX_SAFE_INTEGER },
    );
    expect(outcome).toMatchObject({ ok: true, result: '"rested"' });
  });

  it('CODE-1: recursion that catches every stack overflow and recurses again is stopped like a loop', async () => {
    const outcome = failed(await run('function f() { try { f(); } catch { f(); } }\nf();', { maxBusyMs: 300 }));
    expect(outcome.kind).toBe('limit');
    expect(await run('return "still here";')).toMatchObject({ ok: true, result: '"still here"' });
  });

  it("CODE-1: a program cannot clear the sandbox's own timers: its time limit still ends it", async () => {
    const outcome = failed(
      await run(
        'for (let id = -10; id < 10000; id++) { clearTimeout(id); clearInterval(id); }\nawait new Promise(() => {});',
        {
          timeoutMs: 300,
        },
      ),
    );
    expect(outcome).toMatchObject({ kind: 'limit', error: 'the program ran longer than its time limit of 300 ms' });
  });

  it('CODE-1: async calls left waiting are charged to the memory ledger', async () => {
    const outcome = failed(await run('for (;;) (async () => { await null; })();', { memoryBytes: 1 << 20 }));
    expect(outcome).toMatchObject({ kind: 'limit', error: expect.stringContaining('allocated more than 1 MiB') });
  });

  it('CODE-1: an allocation loop ends with kind limit, saying memory, and workerd runs the next program', async () => {
    const outcome = failed(await run('const a = [];\nwhile (true) a.push(new Array(1e6).fill(1));'));
    expect(outcome.kind).toBe('limit');
    expect(outcome.error).toContain('allocated more than 64 MiB of memory');
    expect(outcome).toMatchObject({ file: 'program.js', line: 2 });
    const strings = failed(await run("let s = 'x';\nwhile (true) s = s.repeat(2);"));
    expect(strings.error).toContain('memory');
    const buffers = failed(await run('const kept = [];\nfor (;;) kept.push(new Uint8Array(8 * 1024 * 1024));'));
    expect(buffers.error).toContain('memory');
    const spread = failed(await run('let a = [1];\nwhile (true) a = [...a, ...a];'));
    expect(spread.error).toContain('memory');
    const keys = failed(
      await run(
        'const a = Array.from({ length: 1e5 }, (_, i) => i);\nconst kept = [];\nfor (;;) kept.push(Object.keys(a));',
      ),
    );
    expect(keys.error).toContain('memory');
    expect(await run('return new Array(1000).fill(0).length;')).toMatchObject({ ok: true, result: '1000' });
  });

  it('CODE-1: ordinary code behaves as usual under the memory ledger', async () => {
    const outcome = await run(
      [
        'class Stack extends Array<number> {}',
        'const s = new Stack();',
        's.push(1, 2, 3);',
        'const m = new Map([["a", 1]]);',
        'm.set("b", 2);',
        'm.set("a", 3);',
        'const set = new Set([1]);',
        'set.add(2).add(2);',
        'const spliced = [1, 2, 3, 4];',
        'const removed = spliced.splice(1, 2, 9);',
        'const shifted = [2];',
        'shifted.unshift(0, 1);',
        'return {',
        '  map: [1, 2, 3].map((x) => x * 2),',
        '  filter: [1, 2, 3, 4].filter((x) => x % 2 === 0),',
        '  slice: [1, 2, 3].slice(1),',
        '  splice: [spliced, removed],',
        '  concat: [1].concat([2, 3], 4),',
        '  flat: [[1], [2, [3]]].flat(2),',
        '  flatMap: [1, 2].flatMap((x) => [x, x]),',
        '  join: ["a", "b"].join("-") + [1, 2].join(),',
        '  from: [Array.from("abc"), Array.from({ length: 3 }, (_, i) => i), Array.from(new Set([5]))],',
        '  made: [new Array(3).length, Array(2, 3), [].constructor === Array, Array.isArray(new Array(1)), [] instanceof Array],',
        '  fill: new Array(3).fill(7),',
        '  unshift: shifted,',
        '  sorted: [[3, 1, 2].toSorted(), [1, 2].toReversed(), [1, 2].with(0, 5)],',
        '  stack: [s instanceof Stack, s instanceof Array, s.length, s.map((x) => x) instanceof Stack],',
        '  typed: [Array.from(new Uint8Array([1, 2, 3]).map((x) => x * 2)), new Float64Array(2).length, new ArrayBuffer(8).byteLength],',
        '  strings: ["ab".repeat(2), "5".padStart(3, "0"), "x".padEnd(2, "."), "a".concat("b", 1)],',
        '  collections: [[...m.entries()], [...set], m.size, set.size],',
        '  json: JSON.parse(JSON.stringify({ a: [1, { b: 2 }] })),',
        '  encoded: Array.from(new TextEncoder().encode("h\u00e9")),',
        '  objects: [Object.keys({ a: 1 }), Object.values({ a: 1 }), Object.entries({ a: 1 }), structuredClone({ a: [1] })],',
        '  split: "a,b".split(","),',
        '  spread: [[...[1, 2], ..."ab"], { ...{ a: 1 } }, Math.max(...[1, 3])],',
        '};',
      ].join('\n'),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(JSON.parse(outcome.result ?? 'null')).toEqual({
      map: [2, 4, 6],
      filter: [2, 4],
      slice: [2, 3],
      splice: [
        [1, 9, 4],
        [2, 3],
      ],
      concat: [1, 2, 3, 4],
      flat: [1, 2, 3],
      flatMap: [1, 1, 2, 2],
      join: 'a-b1,2',
      from: [['a', 'b', 'c'], [0, 1, 2], [5]],
      made: [3, [2, 3], true, true, true],
      fill: [7, 7, 7],
      unshift: [0, 1, 2],
      sorted: [
        [1, 2, 3],
        [2, 1],
        [5, 2],
      ],
      stack: [true, true, 3, true],
      typed: [[2, 4, 6], 2, 8],
      strings: ['abab', '005', 'x.', 'ab1'],
      collections: [
        [
          ['a', 3],
          ['b', 2],
        ],
        [1, 2],
        2,
        2,
      ],
      json: { a: [1, { b: 2 }] },
      encoded: [104, 195, 169],
      objects: [['a'], [1], [['a', 1]], { a: [1] }],
      split: ['a', 'b'],
      spread: [[1, 2, 'a', 'b'], { a: 1 }, 3],
    });
  });

  it('CODE-1: a program cannot replace or remove the guard, nor slow the clock it reads', async () => {
    const outcome = failed(
      await run(
        [
          'const name = Object.getOwnPropertyNames(globalThis).find((key) => key.startsWith("__sa_guard_"));',
          'const attempts = [];',
          'try { globalThis[name] = () => {}; } catch (error) { attempts.push(error.name); }',
          'try { delete globalThis[name]; } catch (error) { attempts.push(error.name); }',
          'try { Object.defineProperty(globalThis, name, { value: () => {} }); } catch (error) { attempts.push(error.name); }',
          'console.log(attempts.join(","));',
          'Date.now = () => 0;',
          'performance.now = () => 0;',
          'while (true) {}',
        ].join('\n'),
        { timeoutMs: 300, maxTicks: Number.MAX_SAFE_INTEGER },
      ),
    );
    expect(outcome.logs).toEqual([{ level: 'log', text: 'TypeError,TypeError,TypeError' }]);
    expect(outcome).toMatchObject({ kind: 'limit', error: 'the program ran longer than its time limit of 300 ms' });
  });

  it('CODE-1: what a program plants on shared prototypes neither forges its outcome, spoils its logs, nor unwraps the ledger', async () => {
    const outcome = failed(
      await run(
        [
          'let leaked;',
          'Object.prototype.then = function (resolve) { resolve({ ok: true, result: "\\"forged\\"" }); };',
          'Object.prototype.get = function (target, key, receiver) { leaked = target; return Reflect.get(target, key, receiver); };',
          'Array.isArray([]);',
          'Object.defineProperty(Array.prototype, "0", { set() { throw new Error("trap"); }, configurable: true });',
          'console.log(typeof leaked);',
          'while (true) {}',
        ].join('\n'),
      ),
    );
    expect(outcome).toMatchObject({ kind: 'limit', error: expect.stringContaining('loop iterations') });
    expect(outcome.logs).toEqual([{ level: 'log', text: 'undefined' }]);
  });

  it('CODE-1: a program that catches the limit error and returns is still reported as limit', async () => {
    const outcome = failed(
      await run(
        [
          'let caught = "";',
          'try { while (true) {} } catch (error) { caught = error.name + ": " + error.message; }',
          '// Every later loop or call throws again.',
          'try { for (;;) {} } catch { caught += " (again)"; }',
          'return caught;',
        ].join('\n'),
      ),
    );
    expect(outcome.kind).toBe('limit');
    expect(outcome.error).toContain('loop iterations');
  });

  it('CODE-1: stop() during a long wait ends the run at once with kind stopped, and its timers with it', async () => {
    const host = new TestHost();
    const entry = load(
      [
        'console.log("waiting");',
        'setInterval(() => { tools.tick(); }, 20);',
        'await tools.started();',
        'await new Promise((resolve) => setTimeout(resolve, 60_000));',
        'return "woke";',
      ].join('\n'),
      { timeoutMs: 120_000 },
    );
    const pending = entry.run(null, host);
    await host.programStarted;
    const stoppedAt = Date.now();
    await entry.stop();
    const outcome = failed(await pending);
    expect(outcome).toMatchObject({ kind: 'stopped', error: 'the run was stopped by its caller' });
    expect(outcome.logs).toEqual([{ level: 'log', text: 'waiting' }]);
    // Well before the program's own 60 s wait would have ended.
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ticksAfterStop = host.ticks;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(host.ticks).toBe(ticksAfterStop);
  });

  it('CODE-1: console output is captured by level, each entry cut at 2,000 characters, the rest counted', async () => {
    const outcome = await run(
      [
        'console.info("n =", 3, { a: [1] });',
        'console.warn(new Error("careful"));',
        'console.error("x".repeat(5000));',
        'for (let i = 0; i < 250; i++) console.debug("line", i);',
        'return "done";',
      ].join('\n'),
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome.logs).toHaveLength(200);
    expect(outcome.logsDropped).toBe(53);
    expect(outcome.logs[0]).toEqual({ level: 'info', text: 'n = 3 {"a":[1]}' });
    expect(outcome.logs[1]?.level).toBe('warn');
    expect(outcome.logs[1]?.text).toMatch(/^Error: careful\n\s+at .*program\.js:2:/);
    expect(outcome.logs[1]?.text).not.toContain('main.js');
    expect(outcome.logs[2]?.text).toHaveLength(2_000);
    expect(outcome.logs[3]).toEqual({ level: 'debug', text: 'line 0' });
  });

  it("CODE-1: every console method is the sandbox's: trace, dir, table and a failed assert are recorded, counters and timers print nothing", async () => {
    const outcome = await run(
      [
        'console.trace("t");',
        'console.dir({ d: 1 });',
        'console.table(["x"]);',
        'console.assert(1 === 1, "fine");',
        'console.assert(false, "broken", 2);',
        'console.count(); console.time("a"); console.timeEnd("a"); console.group("g"); console.groupEnd();',
        'return "done";',
      ].join('\n'),
    );
    expect(outcome).toEqual({
      ok: true,
      result: '"done"',
      logs: [
        { level: 'debug', text: 't' },
        { level: 'log', text: '{"d":1}' },
        { level: 'log', text: '["x"]' },
        { level: 'error', text: 'Assertion failed broken 2' },
      ],
      logsDropped: 0,
    });
  });

  it('CODE-1: console output stops at 32 KiB in all, the rest counted', async () => {
    const outcome = await run('for (let i = 0; i < 40; i++) console.log("y".repeat(1999) + i % 10);');
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    expect(outcome.logs).toHaveLength(16);
    expect(outcome.logsDropped).toBe(24);
  });

  it('CODE-1: tools are called through the host; a host rejection is an Error the program can catch', async () => {
    const host = new TestHost();
    const outcome = await run(
      [
        'const weather = await tools.weather({ city: "Oslo" });',
        'let failure = "";',
        'try { await tools.fail({}); } catch (error) { failure = (error instanceof Error) + " " + error.message; }',
        'return { weather, failure, other: typeof tools.other };',
      ].join('\n'),
      {},
      host,
    );
    expect(outcome).toMatchObject({
      ok: true,
      result: JSON.stringify({
        weather: { city: 'Oslo', celsius: 21 },
        failure: 'true no such city: Atlantis',
        other: 'undefined',
      }),
    });
    expect(host.calls).toEqual([
      { name: 'weather', args: { city: 'Oslo' } },
      { name: 'fail', args: {} },
    ]);
  });

  it('CODE-1: files are there only when granted', async () => {
    expect(await run('return typeof files;')).toMatchObject({ ok: true, result: '"undefined"' });
    const outcome = await run('return [await files.read("/notes.md"), await files.list("/")];', { files: true });
    expect(outcome).toMatchObject({ ok: true, result: '["contents of /notes.md",["a.txt"]]' });
  });

  it('CODE-1: no network and no code from strings inside the program', async () => {
    const fetched = failed(await run('return await fetch("http://127.0.0.1:1/");'));
    expect(fetched.kind).toBe('thrown');
    expect(fetched.error).toContain('not permitted to access the internet');
    const evaluated = failed(await run('return eval("1");'));
    expect(evaluated.error).toContain('Code generation from strings disallowed');
    const constructed = failed(await run('return new Function("return 1")();'));
    expect(constructed.error).toContain('Code generation from strings disallowed');
  });

  it('CODE-1: a value with no JSON form, or too much of it, is kind result', async () => {
    const cycle = failed(await run('const a: { self?: unknown } = {};\na.self = a;\nreturn a;'));
    expect(cycle.kind).toBe('result');
    expect(cycle.error).toContain('cannot be turned into JSON');
    expect(failed(await run('return 10n;')).kind).toBe('result');
    expect(failed(await run('return () => 1;')).error).toBe('the returned value (of type function) has no JSON form');
    const big = failed(await run('return "x".repeat(2_000_000);'));
    expect(big).toMatchObject({ kind: 'result', error: 'the returned value is more than 1 MiB of JSON' });
    // A shared subtree repeated 2^40 times is refused while its JSON is being counted, not built.
    const repeated = failed(await run('let v: unknown[] = [1];\nfor (let i = 0; i < 40; i++) v = [v, v];\nreturn v;'));
    expect(repeated).toMatchObject({ kind: 'result', error: 'the returned value is more than 1 MiB of JSON' });
  });

  it('CODE-1: an isolate runs one program; a second run() is refused', async () => {
    const entry = load('return 1;');
    expect(await entry.run(null, new TestHost())).toMatchObject({ ok: true, result: '1' });
    expect(await entry.run(null, new TestHost())).toMatchObject({
      ok: false,
      kind: 'thrown',
      error: 'this sandbox has already run a program',
    });
  });
});
