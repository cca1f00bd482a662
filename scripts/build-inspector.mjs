#!/usr/bin/env node
/**
 * Bundles the inspector page (inspector/src/main.ts and the client library it imports) into
 * inspector/public/app.js, which the Worker serves as a static asset, and copies the pinned Scalar
 * bundle that `/docs` runs (src/http/routes/api-reference.ts) from node_modules into
 * inspector/public/vendor/, so the reference loads with no CDN. wrangler runs this before
 * `wrangler dev` and `wrangler deploy` ([build] in wrangler.toml); run it by hand only to check a build.
 *
 *   node scripts/build-inspector.mjs           one build
 *   node scripts/build-inspector.mjs --watch   rebuild on every change
 *
 * A file whose bytes would not change is not written: every `wrangler dev` of the project serves
 * inspector/public and restarts when a file there changes, so a build that only rewrote the same
 * bytes would cut the requests of every other dev server running (a test's, an editor's).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Writes `bytes` to `path` unless the file already holds exactly them; whole or not at all (a
 * temporary file renamed into place), so a build running beside another never reads half a file.
 */
function writeIfChanged(path, bytes) {
  if (existsSync(path) && Buffer.compare(readFileSync(path), Buffer.from(bytes)) === 0) return;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Copies Scalar's standalone bundle under a name carrying its version (the name /docs asks for). */
function copyScalar() {
  const from = join(ROOT, 'node_modules', '@scalar', 'api-reference');
  const { version } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const folder = join(ROOT, 'inspector', 'public', 'vendor');
  mkdirSync(folder, { recursive: true });
  const bundle = readFileSync(join(from, 'dist', 'browser', 'standalone.js'));
  writeIfChanged(join(folder, `scalar-api-reference-${version}.js`), bundle);
}

/** @type {import('esbuild').BuildOptions} */
const options = {
  absWorkingDir: ROOT,
  entryPoints: ['inspector/src/main.ts'],
  outfile: 'inspector/public/app.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

copyScalar();
if (process.argv.includes('--watch')) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log('inspector: watching inspector/src and client/');
} else {
  const built = await esbuild.build({ ...options, write: false });
  for (const file of built.outputFiles) writeIfChanged(file.path, file.contents);
}
