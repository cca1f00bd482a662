#!/usr/bin/env node
/**
 * The command behind `npm run eval`. The runner is TypeScript (evals/runner/*.ts) and Node 20 runs
 * none, so this bundles main.ts with esbuild into node_modules/.cache (where its packages resolve),
 * imports it and runs it. The `wrangler dev` launcher is imported here, unbundled, because it finds
 * the project from its own location.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { startWranglerDev } from '../../harness/wrangler-dev.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'standard-agents-eval');
await mkdir(cache, { recursive: true });
const bundle = join(cache, `runner-${process.pid}.mjs`);
await build({
  entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'error',
});
let main;
try {
  ({ main } = await import(pathToFileURL(bundle).href));
} finally {
  await rm(bundle, { force: true });
}
process.exitCode = await main(process.argv.slice(2), process.env, {
  startWranglerDev,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
