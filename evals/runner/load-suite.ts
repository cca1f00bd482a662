/**
 * Loads a suite file. Node 20 runs no TypeScript, so the suite is bundled with esbuild (its imports
 * included) into a temporary ES module, which is imported and then deleted. Whatever goes wrong —
 * no such file, a syntax error, an import that throws, a default export that is not a suite — comes
 * back as one error naming the file and the cause.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Message } from 'esbuild';

/** A suite as loaded: its cases are checked one by one when they run (validate-case.ts). */
export interface LoadedSuite {
  path: string;
  cases: unknown[];
}

export class SuiteLoadError extends Error {}

function described(message: Message): string {
  const where = message.location
    ? `${message.location.file}:${message.location.line}:${message.location.column}: `
    : '';
  return `${where}${message.text}`;
}

async function bundled(path: string): Promise<string> {
  try {
    const result = await build({
      entryPoints: [path],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      // Bundled CommonJS code may call require(): give the module one.
      banner: {
        js: "import { createRequire as __evalRequire } from 'node:module'; const require = __evalRequire(import.meta.url);",
      },
    });
    return (result.outputFiles[0] as { text: string }).text;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    throw new Error(errors?.length ? errors.map(described).join('; ') : (error as Error).message);
  }
}

async function imported(code: string): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'eval-suite-'));
  try {
    const file = join(dir, 'suite.mjs');
    await writeFile(file, code);
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    return module.default;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function loadSuite(file: string): Promise<LoadedSuite> {
  const path = resolve(file);
  try {
    const suite = (await imported(await bundled(path))) as { cases?: unknown } | undefined;
    if (typeof suite !== 'object' || suite === null || !Array.isArray(suite.cases)) {
      throw new Error('its default export must be a suite: export default defineEvalSuite({ cases: [...] })');
    }
    return { path, cases: suite.cases };
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new SuiteLoadError(`suite ${file} does not load: ${cause}`);
  }
}
