#!/usr/bin/env node
/**
 * Bundles the inspector page (inspector/src/main.ts and the client library it imports) into
 * inspector/public/app.js, which the Worker serves as a static asset. wrangler runs this before
 * `wrangler dev` and `wrangler deploy` ([build] in wrangler.toml); run it by hand only to check a build.
 *
 *   node scripts/build-inspector.mjs           one build
 *   node scripts/build-inspector.mjs --watch   rebuild on every change
 */
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

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

if (process.argv.includes('--watch')) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log('inspector: watching inspector/src and client/');
} else {
  await esbuild.build(options);
}
