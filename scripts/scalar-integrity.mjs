#!/usr/bin/env node
/**
 * Prints the Subresource Integrity of Scalar's standalone bundle at a version, for the constants of
 * src/http/routes/api-reference.ts. It reads the file from the package's npm tarball (`npm pack`):
 * the CDN serves an npm package's files byte for byte, so the hash is the one the browser checks.
 *
 *   node scripts/scalar-integrity.mjs 1.76.0
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: node scripts/scalar-integrity.mjs <version, e.g. 1.76.0>');
  process.exit(1);
}
const folder = mkdtempSync(join(tmpdir(), 'scalar-'));
try {
  const tarball = execFileSync('npm', ['pack', `@scalar/api-reference@${version}`, '--silent'], { cwd: folder })
    .toString()
    .trim();
  execFileSync('tar', ['-xzf', tarball, 'package/dist/browser/standalone.js'], { cwd: folder });
  const bytes = readFileSync(join(folder, 'package/dist/browser/standalone.js'));
  console.log(`SCALAR_VERSION = '${version}'`);
  console.log(`SCALAR_INTEGRITY = 'sha384-${createHash('sha384').update(bytes).digest('base64')}'`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
