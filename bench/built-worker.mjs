/**
 * A Worker built as `wrangler deploy` builds it, without deploying (`wrangler deploy --dry-run
 * --outdir`), and the size of what would be uploaded, measured as wrangler reports it in its
 * `Total Upload: … KiB / gzip: … KiB` line: every module of the bundle (source maps and the README
 * wrangler writes beside them are not uploaded), concatenated, and gzipped by node:zlib at its default
 * level, as wrangler does.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const WRANGLER_ENV = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

/** @typedef {{ outdir: string, modules: number, bytes: number, gzipBytes: number }} BuiltWorker */

/**
 * @param {object} options
 * @param {string} options.config wrangler.toml, relative to the repository root.
 * @param {string} options.outdir
 * @param {string} [options.script] An entry in place of the configuration's `main`.
 * @param {boolean} [options.minify] Minified (`--minify`, as `npm run deploy` builds), whatever the configuration says.
 * @returns {Promise<BuiltWorker>}
 */
export async function buildWorker({ config, outdir, script, minify }) {
  const args = [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, '--config', config, ...(script ? [script] : [])];
  if (minify !== undefined) args.push(`--minify=${minify}`);
  try {
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: WRANGLER_ENV });
  } catch (error) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string, stderr?: string }} */ (error);
    throw new Error(`wrangler deploy --dry-run --config ${config} failed:\n${stdout}${stderr}`);
  }
  const uploaded = (await readdir(outdir)).filter((name) => !name.endsWith('.map') && name !== 'README.md');
  const contents = await Promise.all(uploaded.map((name) => readFile(join(outdir, name))));
  const all = Buffer.concat(contents);
  return { outdir, modules: uploaded.length, bytes: all.byteLength, gzipBytes: gzipSync(all).byteLength };
}
