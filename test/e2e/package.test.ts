/**
 * The packed package as a new project gets it: `npm pack` (which builds dist/), the packed command
 * run as npx runs it (`standard-agents-cloudflare init my-agents`, the `bin` of the tarball's
 * manifest), the tarball unpacked into the new project's node_modules, the project type-checked
 * against the packed declarations, served by `wrangler dev` with the `.dev.vars` init wrote (its
 * development key, demo mode), and one turn driven with the packed client: the offline demo model
 * calls the project's one tool. Everything the project depends on besides the tarball is linked
 * from this repository's node_modules at the versions its package.json names: the test must not
 * reach a registry.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { projectFiles } from '../../init/project-files.js';
import { projectVersions } from '../../init/versions.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = 'standard-agents-cloudflare';
/** The key and the agent the new project's .dev.vars and agents/index.ts give it. */
const KEY = 'dev-key';

interface Manifest {
  version: string;
  bin?: Record<string, string>;
  exports: Record<string, { types: string; import: string }>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let work: string;
let project: string;
let initOutput: string;
let dev: WranglerDev;

async function manifestAt(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
}

async function unpack(tarball: string, into: string): Promise<string> {
  const target = join(into, 'node_modules', PACKAGE);
  await mkdir(target, { recursive: true });
  await run('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
  return target;
}

/**
 * What `npm install` would put beside the package: the project's own dependencies and the
 * package's, linked from this repository, each checked to be the version the project asks for.
 */
async function linkDependencies(packageDir: string): Promise<void> {
  const wanted = await manifestAt(project);
  const packaged = await manifestAt(packageDir);
  const names = new Set([
    ...Object.keys(wanted.dependencies ?? {}),
    ...Object.keys(wanted.devDependencies ?? {}),
    ...Object.keys(packaged.dependencies ?? {}),
  ]);
  names.delete(PACKAGE);
  for (const name of names) {
    const source = join(ROOT, 'node_modules', name);
    const asked = wanted.dependencies?.[name] ?? wanted.devDependencies?.[name];
    if (asked !== undefined) expect((await manifestAt(source)).version, name).toBe(asked);
    const link = join(project, 'node_modules', name);
    await mkdir(join(link, '..'), { recursive: true });
    await symlink(source, link, 'dir');
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'packed-init-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT });
  const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  if (!tarball) throw new Error(`npm pack printed no file: ${packed.stdout}`);
  // npx: the package alone in a cache folder, its command run from the folder the user is in.
  const npxPackage = await unpack(join(work, tarball.filename), join(work, 'npx'));
  const command = (await manifestAt(npxPackage)).bin?.[PACKAGE];
  if (!command) throw new Error(`the packed manifest declares no ${PACKAGE} command`);
  initOutput = (await run(process.execPath, [join(npxPackage, command), 'init', 'my-agents'], { cwd: work })).stdout;
  project = join(work, 'my-agents');
  await linkDependencies(await unpack(join(work, tarball.filename), project));
  dev = await startWranglerDev({ cwd: project });
}, 300_000);

afterAll(async () => {
  await dev?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships built JavaScript and declarations for the runtime, the spec API and the client', async () => {
    const target = join(project, 'node_modules', PACKAGE);
    const manifest = (await manifestAt(target)) as Manifest & { private?: boolean };
    expect(manifest.private).toBeUndefined();
    for (const entry of ['.', './spec', './client', './client/react']) {
      const paths = manifest.exports[entry];
      expect(paths, entry).toBeDefined();
      await expect(readFile(join(target, paths?.import ?? ''), 'utf8')).resolves.toBeTruthy();
      await expect(readFile(join(target, paths?.types ?? ''), 'utf8')).resolves.toBeTruthy();
    }
  });

  it('init writes the project docs/deploy.md shows, and says what to run next', async () => {
    const versions = projectVersions(new URL('../../package.json', import.meta.url));
    for (const file of projectFiles('my-agents', versions)) {
      expect(await readFile(join(project, file.path), 'utf8'), file.path).toBe(file.text);
    }
    expect(initOutput).toContain('cd my-agents\n  npm install\n  npm run dev');
  });

  it('type-checks the new project against the packed declarations', async () => {
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toBeDefined();
  });

  it('bundles the new project for wrangler deploy with every binding (a dry run: nothing leaves the machine)', async () => {
    const wrangler = join(project, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
    const outdir = join(work, 'deploy-bundle');
    const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };
    const { stdout } = await run(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir], {
      cwd: project,
      env,
    });
    for (const binding of ['env.THREADS (Thread)', 'env.FILES (my-agents-files)', 'env.DB (my-agents-index)']) {
      expect(stdout).toContain(binding);
    }
    expect(stdout).toMatch(/env\.LOADER\s+Worker Loader/);
    expect(stdout).toMatch(/env\.OAUTH_KV\s+KV Namespace/);
    expect(stdout).toMatch(/env\.ASSETS\s+Assets/);
  });

  it('serves the new project under wrangler dev: the demo model calls its tool, driven by the packed client', async () => {
    const entry = join(project, 'node_modules', PACKAGE, 'dist', 'client', 'index.js');
    const { createClient } = (await import(entry)) as typeof import('../../client/index.js');
    const client = createClient({ baseUrl: dev.url, apiKey: KEY });
    const created = await client.threads.create({
      agent: 'assistant',
      messages: [{ role: 'user', content: 'count_words {"text": "one two three"}' }],
    });
    const deadline = Date.now() + 30_000;
    let log = (await client.messages.list(created.id)).messages;
    while (Date.now() < deadline && !(log.at(-1)?.role === 'assistant' && !log.at(-1)?.tool_calls)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      log = (await client.messages.list(created.id)).messages;
    }
    const tool = log.find((message) => message.role === 'tool');
    expect(tool).toMatchObject({ name: 'count_words', content: '3 words', tool_status: 'success' });
    expect(log.at(-1)?.content).toBe('Here is what the tools returned:\n3 words');
  });

  it('serves the inspector page from the package', async () => {
    const page = await fetch(`${dev.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/^<!doctype html>/i);
  });
});
