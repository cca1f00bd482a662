/**
 * `/docs` runs Scalar's bundle from the Worker's own assets, with no CDN (THR-5): the installed
 * `@scalar/api-reference` is the pinned version, its file is the one the page's integrity names, and
 * the inspector build copies exactly those bytes to the path the page asks for.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  API_REFERENCE_PAGE,
  SCALAR_INTEGRITY,
  SCALAR_SCRIPT,
  SCALAR_VERSION,
} from '../../../src/http/routes/api-reference.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGE = `${ROOT}node_modules/@scalar/api-reference/`;

function integrity(bytes: Buffer): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

describe('the API reference bundle', () => {
  it('THR-5: the pinned version is installed, and its standalone file is the one the page trusts', () => {
    const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(manifest.devDependencies['@scalar/api-reference']).toBe(SCALAR_VERSION);
    expect((JSON.parse(readFileSync(`${PACKAGE}package.json`, 'utf8')) as { version: string }).version).toBe(
      SCALAR_VERSION,
    );
    expect(integrity(readFileSync(`${PACKAGE}dist/browser/standalone.js`))).toBe(SCALAR_INTEGRITY);
  });

  it('THR-5: the inspector build serves those bytes where the page asks for them, a path on this origin', () => {
    expect(SCALAR_SCRIPT).toMatch(/^\/vendor\/[a-z0-9.-]+\.js$/);
    expect(API_REFERENCE_PAGE).toContain(`src="${SCALAR_SCRIPT}"`);
    expect(API_REFERENCE_PAGE).not.toMatch(/https?:\/\//);
    execFileSync(process.execPath, ['scripts/build-inspector.mjs'], { cwd: ROOT });
    expect(integrity(readFileSync(`${ROOT}inspector/public${SCALAR_SCRIPT}`))).toBe(SCALAR_INTEGRITY);
  });
});
