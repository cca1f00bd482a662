/**
 * The versions a new project depends on: this package's own version, and the versions of zod,
 * wrangler, TypeScript and the Workers types this release is built and tested with, read from the
 * package's manifest so a new project starts on a combination known to work.
 */
import { readFileSync } from 'node:fs';

export interface ProjectVersions {
  runtime: string;
  zod: string;
  wrangler: string;
  typescript: string;
  workersTypes: string;
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const PACKAGE = 'standard-agents-cloudflare';

/** The package's manifest: the nearest package.json above `from` that is this package's. */
function readManifest(from: URL): Manifest {
  for (let at = new URL('./', from); ; at = new URL('../', at)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('package.json', at), 'utf8')) as Manifest;
      if (manifest.name === PACKAGE) return manifest;
    } catch {
      // No package.json here: look one folder up.
    }
    if (at.pathname === '/') throw new Error(`${PACKAGE}: its package.json was not found above ${from.pathname}`);
  }
}

function required(table: Record<string, string> | undefined, name: string): string {
  const version = table?.[name];
  if (!version) throw new Error(`${PACKAGE}'s package.json names no version of ${name}`);
  return version;
}

/** The versions from the manifest of the package this file belongs to. */
export function projectVersions(from: URL = new URL(import.meta.url)): ProjectVersions {
  const manifest = readManifest(from);
  if (!manifest.version) throw new Error(`${PACKAGE}'s package.json has no version`);
  return {
    runtime: manifest.version,
    zod: required(manifest.dependencies, 'zod'),
    wrangler: required(manifest.devDependencies, 'wrangler'),
    typescript: required(manifest.devDependencies, 'typescript'),
    workersTypes: required(manifest.devDependencies, '@cloudflare/workers-types'),
  };
}
