/**
 * A sandboxed program made ready for the isolate (CODE-1): its TypeScript stripped, its loops and
 * functions instrumented with the run's guard, its imports pointed at the emitted modules, and its
 * body wrapped as the async function the isolate's main module calls with `input`, `tools` and `files`.
 * What cannot run is refused here, as data naming the user's file and line, before any isolate is
 * loaded.
 *
 * The program is written as the body of an async function: top-level `await` and `return <value>` are
 * allowed, and `import { x } from './util'` lines refer to the extra modules. The wrapper is one line
 * of text put before the user's first line, so every line number in a stack trace is the user's own;
 * only columns on line 1 are shifted, by `programPrefixLength`.
 */
import { programCompilers } from './compilers-loader.js';
import { type CodeProblem, type InstrumentedCode, type InstrumentOptions, instrumentCode } from './instrument.js';
import {
  emittedModuleName,
  isTypeScriptName,
  MAX_MODULES,
  MAX_SOURCE_BYTES,
  moduleNameProblem,
  PROGRAM_MODULE,
  PROGRAM_NAME,
} from './module-names.js';

export interface ProgramInput {
  /** TypeScript or JavaScript: the body of an async function of `input`, `tools` and `files`. */
  source: string;
  /** Extra ES modules the program may import, by relative name: `util.ts`, `lib/math.js`. */
  modules?: Record<string, string>;
  /** The guard's global name; a fresh random one when left out. */
  guard?: string;
}

export interface PreparedProgram {
  ok: true;
  /** `program.js` and the emitted modules, by the names the isolate loads them under. */
  modules: Record<string, string>;
  /** The global the instrumented code calls; the isolate's main module defines it. */
  guard: string;
  /** How many characters the wrapper puts before the user's line 1 in `program.js`. */
  programPrefixLength: number;
  /** Each emitted module name to the name the user knows: `program.js` is `program`, `util.js` is `util.ts`. */
  fileNames: Record<string, string>;
}

/** A program the sandbox will not load: a syntax error, or a name, size or import it refuses. */
export interface ProgramSyntaxError {
  ok: false;
  error: string;
  /** `program`, or the module's name as given. */
  file: string;
  /** 1-based; present when the problem is at a place in the code. */
  line?: number;
  /** 1-based; of the JavaScript once types are stripped, so approximate in TypeScript. */
  column?: number;
}

/** The name of the function the wrapped program is; main.js imports it as the default export. */
const PROGRAM_PREFIX = 'export default async function __program(input, tools, files) { return (async () => {';

/** The end of the wrapper: the inner arrow gives the body its own scope (`const input = 1` is allowed). */
const PROGRAM_SUFFIX = '\n})(); }\n';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A guard name user code cannot know before the run: `__sa_guard_` and 64 random bits. */
export function randomGuardName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `__sa_guard_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** sucrase's syntax errors carry where they were raised, with a 1-based column. */
interface SucraseSyntaxError extends Error {
  loc?: { line: number; column: number };
}

/** Types stripped, line for line; type-only imports elided when `elideImports`. */
function stripTypes(source: string, elideImports: boolean): { code: string } | CodeProblem {
  try {
    const { code } = programCompilers().transform(source, {
      transforms: ['typescript'],
      disableESTransforms: true,
      keepUnusedImports: !elideImports,
    });
    return { code };
  } catch (error) {
    const { message, loc } = error as SucraseSyntaxError;
    return { message: message.replace(/ \(\d+:\d+\)$/, ''), line: loc?.line ?? 1, column: loc?.column ?? 1 };
  }
}

/**
 * One file stripped and instrumented. A TypeScript file's imports that name only types are elided,
 * as tsc does, so an interface can be imported from a module; its imports are first checked as
 * written, so an unused `import x from 'lodash'` is refused all the same.
 */
function emitFile(source: string, typeScript: boolean, options: InstrumentOptions): InstrumentedCode | CodeProblem {
  const written = stripTypes(source, false);
  if ('message' in written) return written;
  const checked = instrumentCode(written.code, options);
  if ('message' in checked || !typeScript) return checked;
  const elided = stripTypes(source, true);
  if ('message' in elided) return elided;
  return instrumentCode(elided.code, options);
}

function refusal(file: string, error: string, at?: CodeProblem): ProgramSyntaxError {
  return at ? { ok: false, error: at.message, file, line: at.line, column: at.column } : { ok: false, error, file };
}

/** Checks the names and sizes; returns each module's emitted name, or why they are refused. */
function emittedNames(source: string, modules: Record<string, string>): Map<string, string> | ProgramSyntaxError {
  if (typeof source !== 'string') return refusal(PROGRAM_NAME, 'the program must be text');
  if (utf8Bytes(source) > MAX_SOURCE_BYTES) {
    return refusal(PROGRAM_NAME, `the program is larger than ${MAX_SOURCE_BYTES / 1024} KiB`);
  }
  const names = Object.keys(modules);
  if (names.length > MAX_MODULES) {
    return refusal(PROGRAM_NAME, `a program may bring at most ${MAX_MODULES} modules, not ${names.length}`);
  }
  const emitted = new Map<string, string>();
  const taken = new Map<string, string>();
  for (const name of names) {
    const problem = moduleNameProblem(name);
    if (problem) return refusal(name, problem);
    const text = modules[name];
    if (typeof text !== 'string') return refusal(name, `module "${name}" must be text`);
    if (utf8Bytes(text) > MAX_SOURCE_BYTES) {
      return refusal(name, `module "${name}" is larger than ${MAX_SOURCE_BYTES / 1024} KiB`);
    }
    const emittedName = emittedModuleName(name);
    const other = taken.get(emittedName);
    if (other !== undefined) {
      return refusal(name, `modules "${other}" and "${name}" would both be loaded as "${emittedName}"`);
    }
    taken.set(emittedName, name);
    emitted.set(name, emittedName);
  }
  return emitted;
}

/** Strips, instruments and wraps the program and its modules; refuses what cannot run, as data. */
export function prepareProgram(input: ProgramInput): PreparedProgram | ProgramSyntaxError {
  const guard = input.guard ?? randomGuardName();
  if (!IDENTIFIER.test(guard)) throw new TypeError(`the guard name "${guard}" is not an identifier`);
  const extra = input.modules ?? {};
  const emitted = emittedNames(input.source, extra);
  if (!(emitted instanceof Map)) return emitted;

  // Import specifiers are matched on the name without its extension: `./util`, `./util.ts`, `./util.js`.
  const byBaseName = new Map<string, string>();
  for (const emittedName of emitted.values()) byBaseName.set(emittedName.slice(0, -'.js'.length), emittedName);

  const modules: Record<string, string> = {};
  const fileNames: Record<string, string> = { [PROGRAM_MODULE]: PROGRAM_NAME };
  for (const [name, emittedName] of emitted) {
    const instrumented = emitFile(extra[name] ?? '', isTypeScriptName(name), {
      guard,
      emittedName,
      modules: byBaseName,
      isProgram: false,
    });
    if ('message' in instrumented) return refusal(name, instrumented.message, instrumented);
    modules[emittedName] = instrumented.code;
    fileNames[emittedName] = name;
  }

  // The program is treated as TypeScript: plain JavaScript passes through the same stripping unchanged.
  const instrumented = emitFile(input.source, true, {
    guard,
    emittedName: PROGRAM_MODULE,
    modules: byBaseName,
    isProgram: true,
  });
  if ('message' in instrumented) return refusal(PROGRAM_NAME, instrumented.message, instrumented);
  const hoisted = instrumented.imports.map((declaration) => `${declaration}\n`).join('');
  modules[PROGRAM_MODULE] = PROGRAM_PREFIX + instrumented.code + PROGRAM_SUFFIX + hoisted;

  return { ok: true, modules, guard, programPrefixLength: PROGRAM_PREFIX.length, fileNames };
}
