#!/usr/bin/env node
/**
 * Prints the version and Subresource Integrity of the installed Scalar standalone bundle, for the
 * constants of src/http/routes/api-reference.ts. The file is read from node_modules (the
 * `@scalar/api-reference` devDependency, pinned to one version), the same bytes
 * scripts/build-inspector.mjs copies into the Worker's assets.
 *
 *   npm install --save-dev --save-exact @scalar/api-reference@<version>
 *   node scripts/scalar-integrity.mjs
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../node_modules/@scalar/api-reference/', import.meta.url));
const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
const bytes = readFileSync(join(PACKAGE, 'dist', 'browser', 'standalone.js'));
console.log(`SCALAR_VERSION = '${version}'`);
console.log(`SCALAR_INTEGRITY = 'sha384-${createHash('sha384').update(bytes).digest('base64')}'`);
