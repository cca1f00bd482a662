/**
 * `npm run lint:tools [app entry] [--strict]` (DEF-7): lints an application's tools against the tool
 * design rules (seed 002) and prints the findings grouped by tool.
 *
 * The app is TypeScript written against `@standardagents/spec`, so it is bundled with esbuild (the same
 * alias the Worker build uses) together with the lint itself into one ES module: one copy of Zod, so the
 * `.describe()` texts the lint reads are the ones the app registered. Findings are warnings for user
 * tools (exit 0); `--strict` turns them into a failure (exit 1). Exit 2 means the app could not be linted.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const strict = args.includes('--strict');
const entry = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(repoRoot, 'agents/index.ts'));
const fromCwd = relative(process.cwd(), entry);
const shownEntry = fromCwd === '' || fromCwd.startsWith('..') ? entry : fromCwd;

/** Bundles the app and the lint into a temporary module and imports it. */
async function loadApp() {
  const outdir = mkdtempSync(join(tmpdir(), 'lint-tools-'));
  const outfile = join(outdir, 'lint-entry.mjs');
  try {
    await build({
      stdin: {
        contents: [
          `export * as app from ${JSON.stringify(entry)};`,
          `export { lintTools } from ${JSON.stringify(join(repoRoot, 'src/spec/tool-lint.ts'))};`,
        ].join('\n'),
        resolveDir: repoRoot,
        sourcefile: 'lint-entry.ts',
        loader: 'ts',
      },
      absWorkingDir: repoRoot,
      alias: { '@standardagents/spec': './src/spec/index.ts' },
      // An app outside this repository still resolves zod from here.
      nodePaths: [join(repoRoot, 'node_modules')],
      bundle: true,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      format: 'esm',
      target: 'es2022',
      outfile,
      // Build errors are reported once, by main(), from the thrown error.
      logLevel: 'silent',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

function report(tools, findings) {
  const toolNames = Object.keys(tools);
  console.log(`Tool design lint (DEF-7): ${shownEntry}, ${toolNames.length} tools`);
  const ruleWidth = Math.max(0, ...findings.map((finding) => finding.rule.length));
  const toolWidth = Math.max(0, ...findings.map((finding) => finding.tool.length));
  for (const name of toolNames) {
    const own = findings.filter((finding) => finding.tool === name);
    if (own.length === 0) continue;
    console.log('');
    for (const finding of own) {
      console.log(`${finding.tool.padEnd(toolWidth)}  ${finding.rule.padEnd(ruleWidth)}  ${finding.message}`);
    }
  }
  const flagged = new Set(findings.map((finding) => finding.tool)).size;
  console.log('');
  if (findings.length === 0) {
    console.log(`No findings in ${toolNames.length} tools.`);
  } else {
    const kind = strict ? '--strict: failing' : 'warnings; pass --strict to fail on them';
    const plural = findings.length === 1 ? 'finding' : 'findings';
    console.log(`${findings.length} ${plural} in ${flagged} of ${toolNames.length} tools (${kind}).`);
  }
}

async function main() {
  if (!existsSync(entry)) {
    console.error(`lint:tools: ${shownEntry} does not exist`);
    return 2;
  }
  let bundle;
  try {
    bundle = await loadApp();
  } catch (error) {
    console.error(`lint:tools: could not load ${shownEntry}: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  const tools = bundle.app.tools ?? bundle.app.default?.tools;
  if (tools === null || typeof tools !== 'object') {
    console.error(`lint:tools: ${shownEntry} has no \`tools\` export (an object of tools keyed by name)`);
    return 2;
  }
  const findings = bundle.lintTools(tools);
  report(tools, findings);
  return findings.length > 0 && strict ? 1 : 0;
}

process.exitCode = await main();
