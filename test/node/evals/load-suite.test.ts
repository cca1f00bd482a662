/**
 * Loading a suite file (EVAL-1, EVAL-7): TypeScript bundled with esbuild and imported on Node 20; a
 * file that is missing, does not parse, throws as it loads or exports no suite is refused with one
 * error naming the file and the cause.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuite, SuiteLoadError } from '../../../evals/runner/load-suite.js';

const HELPER = fileURLToPath(new URL('../../../evals/runner/suite.ts', import.meta.url));
let dir: string;

async function suiteFile(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'eval-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loading a suite', () => {
  it('EVAL-1: a TypeScript suite with types, imports and functions loads with its cases', async () => {
    const path = await suiteFile(
      'good.eval.ts',
      `import { defineEvalSuite, type EvalLog } from ${JSON.stringify(HELPER)};
       const calls = (log: EvalLog): number => log.toolCalls.length;
       export default defineEvalSuite({ cases: [
         { name: 'a', agent: 'assistant', messages: ['hi'], assertions: [{ kind: 'custom', check: (log) => calls(log) === 0 || 'called' }] },
       ] });`,
    );
    const suite = await loadSuite(path);
    expect(suite.path).toBe(path);
    expect(suite.cases).toHaveLength(1);
    expect(suite.cases[0]).toMatchObject({ name: 'a', agent: 'assistant' });
  });

  it('EVAL-1: the shipped example suite loads', async () => {
    const suite = await loadSuite(fileURLToPath(new URL('../../../evals/example.eval.ts', import.meta.url)));
    expect(suite.cases.length).toBeGreaterThanOrEqual(5);
  });

  it('EVAL-7: a missing file, a syntax error, a throw at load and a default export that is no suite name the file and the cause', async () => {
    const missing = join(dir, 'absent.eval.ts');
    await expect(loadSuite(missing)).rejects.toThrow(SuiteLoadError);
    await expect(loadSuite(missing)).rejects.toThrow(
      /^suite .*absent\.eval\.ts does not load: .*(Could not resolve|not found|no such file)/i,
    );

    const syntax = await suiteFile('syntax.eval.ts', 'export default { cases: [ { name: "a", };\n');
    await expect(loadSuite(syntax)).rejects.toThrow(
      /^suite .*syntax\.eval\.ts does not load: .*syntax\.eval\.ts:1:\d+: /,
    );

    const throws = await suiteFile(
      'throws.eval.ts',
      'throw new Error("no API key in this shell");\nexport default { cases: [] };',
    );
    await expect(loadSuite(throws)).rejects.toThrow(
      /^suite .*throws\.eval\.ts does not load: no API key in this shell$/,
    );

    const noDefault = await suiteFile('named.eval.ts', 'export const cases = [];');
    await expect(loadSuite(noDefault)).rejects.toThrow(
      /named\.eval\.ts does not load: its default export must be a suite/,
    );

    const notList = await suiteFile('not-list.eval.ts', 'export default { cases: "all of them" };');
    await expect(loadSuite(notList)).rejects.toThrow(
      /not-list\.eval\.ts does not load: its default export must be a suite/,
    );

    const badImport = await suiteFile(
      'import.eval.ts',
      'import x from "./nowhere.js";\nexport default { cases: [x] };',
    );
    await expect(loadSuite(badImport)).rejects.toThrow(/import\.eval\.ts does not load: .*nowhere\.js/);
  });
});
