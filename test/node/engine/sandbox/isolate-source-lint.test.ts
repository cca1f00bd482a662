/**
 * The JavaScript a sandboxed run's isolate is given is checked like the rest of the code base. It
 * lives as text in template strings (sandbox-main.ts and the isolate-*.ts files it embeds), which
 * neither tsc nor Biome sees: a slip there would show only when an isolate failed to load. Here the
 * text exactly as the runtime assembles it (main.js, and program.js around a program) is parsed by
 * acorn as an ES module and linted by Biome with the project's rules; every problem names the
 * template it is in, with its line there and the message. The bundled RE2JS engine (isolate-re2js.ts,
 * generated, minified) is parsed with the rest but left out of the lint.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import {
  loadProgramCompilers,
  PROGRAM_MODULE,
  prepareProgram,
  SANDBOX_MAIN_MODULE,
  sandboxMainModule,
} from '../../../../src/engine/sandbox/index.js';
import { CONSOLE_SOURCE } from '../../../../src/engine/sandbox/isolate-console.js';
import { HOST_BRIDGE_SOURCE } from '../../../../src/engine/sandbox/isolate-host-bridge.js';
import { MEMORY_LEDGER_SOURCE } from '../../../../src/engine/sandbox/isolate-ledger.js';
import { QUEUED_JOBS_SOURCE } from '../../../../src/engine/sandbox/isolate-queued-jobs.js';
import { RE2JS_SCRIPT } from '../../../../src/engine/sandbox/isolate-re2js.js';
import { LINEAR_REGEXP_SOURCE } from '../../../../src/engine/sandbox/isolate-regexp.js';
import { WORK_METER_SOURCE } from '../../../../src/engine/sandbox/isolate-work-meter.js';

// The compilers load on first use (as runProgram loads them); the tests call the preparation directly.
await loadProgramCompilers();

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
const GUARD = '__sa_guard_0123456789abcdef';
/** A program that uses what it is given, so the wrapper's parameters are all in use. */
const PROGRAM = 'const found = await tools.search({ input });\nreturn files === undefined ? found : [found];';

/** One module the isolate loads, and the templates its text is made of (the rest is its own file's). */
interface IsolateModule {
  name: string;
  text: string;
  owner: string;
  templates: { name: string; text: string }[];
}

/** A problem, with the place it was found in the module. */
interface Problem {
  line: number;
  column: number;
  message: string;
}

function isolateModules(): IsolateModule[] {
  const main = sandboxMainModule({
    guard: GUARD,
    modules: [PROGRAM_MODULE],
    toolNames: ['search'],
    files: true,
    timeoutMs: 30_000,
  });
  const prepared = prepareProgram({ source: PROGRAM, guard: GUARD });
  if (!prepared.ok) throw new Error(prepared.error);
  return [
    {
      name: SANDBOX_MAIN_MODULE,
      text: main,
      owner: 'sandbox-main.ts',
      templates: [
        { name: 'WORK_METER_SOURCE (isolate-work-meter.ts)', text: WORK_METER_SOURCE },
        { name: 'MEMORY_LEDGER_SOURCE (isolate-ledger.ts)', text: MEMORY_LEDGER_SOURCE },
        { name: 'LINEAR_REGEXP_SOURCE (isolate-regexp.ts)', text: LINEAR_REGEXP_SOURCE },
        { name: 'CONSOLE_SOURCE (isolate-console.ts)', text: CONSOLE_SOURCE },
        { name: 'QUEUED_JOBS_SOURCE (isolate-queued-jobs.ts)', text: QUEUED_JOBS_SOURCE },
        { name: 'HOST_BRIDGE_SOURCE (isolate-host-bridge.ts)', text: HOST_BRIDGE_SOURCE },
      ],
    },
    { name: PROGRAM_MODULE, text: prepared.modules[PROGRAM_MODULE] ?? '', owner: 'program-source.ts', templates: [] },
  ];
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

/** "CONSOLE_SOURCE (isolate-console.ts) line 12 (main.js 640:3): message" for a line of the module. */
function located(module: IsolateModule, problem: Problem): string {
  const offsetOfLine = module.text
    .split('\n')
    .slice(0, problem.line - 1)
    .join('\n').length;
  for (const template of module.templates) {
    const start = module.text.indexOf(template.text);
    if (offsetOfLine >= start && offsetOfLine < start + template.text.length) {
      const line = problem.line - lineCount(module.text.slice(0, start)) + 1;
      return `${template.name} line ${line} (${module.name} ${problem.line}:${problem.column}): ${problem.message}`;
    }
  }
  return `${module.owner} (${module.name} ${problem.line}:${problem.column}): ${problem.message}`;
}

function syntaxProblems(text: string): Problem[] {
  try {
    parse(text, { ecmaVersion: 'latest', sourceType: 'module' });
    return [];
  } catch (error) {
    const { loc, message } = error as SyntaxError & { loc?: { line: number; column: number } };
    return [{ line: loc?.line ?? 0, column: (loc?.column ?? 0) + 1, message }];
  }
}

/**
 * The module's text with the RE2JS engine replaced by a stand-in of as many lines, so the lint's
 * lines are the module's: the engine is generated and minified, not written to this house's rules.
 */
function withoutBundledEngine(text: string): string {
  const standIn = `const linearRegexEngine = __tick;${'\n'.repeat(lineCount(RE2JS_SCRIPT) - 1)}`;
  return text.replace(RE2JS_SCRIPT, () => standIn);
}

// `::warning title=lint/x/y,file=/tmp/.../main.js,line=3,endLine=3,col=5,endColumn=9::message`
const GITHUB_DIAGNOSTIC =
  /^::(?:error|warning) title=([^,]+),file=(.*?),line=(\d+),endLine=\d+,col=(\d+),endColumn=\d+::(.*)$/;

/**
 * Biome's diagnostics of each module at warning level and above, by its name, with the project's
 * configuration: the rest of the code base has none, so neither may the isolate's code (an unused
 * variable is a warning). Notes (`useTemplate`) are left: a template literal cannot be written
 * inside the String.raw templates, so the isolate's code joins strings with `+`.
 */
function lintProblems(modules: IsolateModule[], folder: string): Map<string, Problem[]> {
  const files = modules.map((module) => {
    const file = join(folder, module.name);
    writeFileSync(file, withoutBundledEngine(module.text));
    return file;
  });
  const biome = spawnSync(
    process.execPath,
    [
      BIOME,
      'lint',
      `--config-path=${ROOT}`,
      '--reporter=github',
      '--diagnostic-level=warn',
      '--max-diagnostics=500',
      ...files,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const problems = new Map<string, Problem[]>(modules.map((module) => [module.name, []]));
  let found = 0;
  for (const line of biome.stdout.split('\n')) {
    const match = GITHUB_DIAGNOSTIC.exec(line);
    if (!match) continue;
    found += 1;
    const [, title, file = '', at = '0', column = '0', message] = match;
    const ofModule = problems.get(basename(file));
    if (!ofModule) throw new Error(`biome reported a file that is no module here: ${line}`);
    ofModule.push({ line: Number(at), column: Number(column), message: `${title}: ${message}` });
  }
  // A failure with no diagnostic is Biome not linting at all (a missing file, a bad option): never a pass.
  if (biome.status !== 0 && found === 0) {
    throw new Error(`biome lint failed: ${biome.error ?? ''}${biome.stdout}${biome.stderr}`);
  }
  return problems;
}

describe('the JavaScript an isolate is given', () => {
  const modules = isolateModules();

  it('embeds every template in main.js once, as the locations below assume', () => {
    const [main] = modules;
    for (const template of main?.templates ?? []) {
      expect(main?.text.split(template.text).length, template.name).toBe(2);
    }
    expect(main?.text.split(RE2JS_SCRIPT).length).toBe(2);
  });

  it.each(modules.map((module) => [module.name, module]))('%s parses as an ES module', (_name, module) => {
    expect(syntaxProblems(module.text).map((problem) => located(module, problem))).toEqual([]);
  });

  it('passes the project lint, the bundled RE2JS engine aside', () => {
    const folder = mkdtempSync(join(tmpdir(), 'isolate-source-lint-'));
    try {
      const problems = lintProblems(modules, folder);
      const messages = modules.flatMap((module) =>
        (problems.get(module.name) ?? []).map((problem) => located(module, problem)),
      );
      expect(messages).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
