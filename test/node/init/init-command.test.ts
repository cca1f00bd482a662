/**
 * `npx standard-agents-cloudflare init <folder>` as a user runs it (the command's main, with its
 * arguments): it writes the project into a new or empty folder, names the project only with
 * characters every generated file accepts, and refuses, writing nothing, a folder that holds
 * anything already. The packed command itself runs in test/e2e/package.test.ts.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../init/cli.js';
import { projectFiles } from '../../../init/project-files.js';
import { projectVersions } from '../../../init/versions.js';
import { FOLDERS_NOT_EMPTY, PROJECT_FOLDER_NAMES } from '../../support/hostile-corpus.js';

const versions = projectVersions(new URL('../../../package.json', import.meta.url));
let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'init-command-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function init(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { cwd, log: (line) => out.push(line), error: (line) => err.push(line), versions });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Every file under a folder, with its text, by relative path. */
async function tree(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found[path.slice(dir.length + 1)] = await readFile(path, 'utf8');
  }
  return found;
}

describe('standard-agents-cloudflare init', () => {
  it('writes the project into a new folder and says what to run next', async () => {
    const result = await init('init', 'my-agents');
    expect(result.code).toBe(0);
    const expected = Object.fromEntries(projectFiles('my-agents', versions).map((file) => [file.path, file.text]));
    expect(await tree(join(cwd, 'my-agents'))).toEqual(expected);
    expect(result.out).toContain('cd my-agents\n  npm install\n  npm run dev');
  });

  it('writes into an empty folder, or one that holds only a git repository', async () => {
    await mkdir(join(cwd, 'empty'));
    await mkdir(join(cwd, 'repo', '.git'), { recursive: true });
    await writeFile(join(cwd, 'repo', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect((await init('init', 'empty')).code).toBe(0);
    expect((await init('init', 'repo')).code).toBe(0);
    expect(await readFile(join(cwd, 'repo', '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(Object.keys(await tree(join(cwd, 'repo')))).toContain('wrangler.toml');
  });

  it('writes into the folder it runs in (init .), named after it, and prints no cd', async () => {
    const here = join(cwd, 'Here We Are');
    await mkdir(here);
    const out: string[] = [];
    const code = await main(['init', '.'], { cwd: here, log: (line) => out.push(line), error: () => {}, versions });
    expect(code).toBe(0);
    expect(JSON.parse(await readFile(join(here, 'package.json'), 'utf8')).name).toBe('here-we-are');
    expect(out.join('\n')).toContain('Next:\n  npm install\n  npm run dev');
  });

  it('quotes a folder with spaces or quotes in the cd it prints', async () => {
    expect((await init('init', "Bob's agents")).out).toContain(`cd 'Bob'\\''s agents'\n`);
  });

  it('prints its usage without a folder or for an unknown command, and writes nothing', async () => {
    for (const args of [[], ['init'], ['create', 'x'], ['init', 'a', 'b'], ['init', '--force']]) {
      const result = await init(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.err).toContain('Usage: npx standard-agents-cloudflare init <folder>');
    }
    expect(await readdir(cwd)).toEqual([]);
    expect((await init('--help')).code).toBe(0);
  });

  for (const { label, folder, name } of PROJECT_FOLDER_NAMES) {
    it(`a folder named with ${label} ${name ? `makes the project "${name.slice(0, 20)}"` : 'is refused'}`, async () => {
      const result = await init('init', folder);
      if (name === null) {
        expect(result.code).toBe(1);
        expect(result.err).toMatch(/^standard-agents-cloudflare init: (cannot make a project name of|cannot use)/);
        expect(await readdir(cwd)).toEqual([]);
        return;
      }
      expect(result.code).toBe(0);
      // Exactly the files of a project of that name: the folder's name added no line and no key.
      const expected = Object.fromEntries(projectFiles(name, versions).map((file) => [file.path, file.text]));
      expect(await tree(join(cwd, folder))).toEqual(expected);
      expect(JSON.parse(expected['package.json'] as string).name).toBe(name);
      expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    });
  }

  for (const { label, entry, kind } of FOLDERS_NOT_EMPTY) {
    it(`refuses a folder holding ${label}, writing nothing and leaving it as it was`, async () => {
      const folder = join(cwd, 'taken');
      await mkdir(folder);
      const planted = join(folder, entry);
      if (kind === 'file') await writeFile(planted, 'the user’s own\n');
      if (kind === 'folder') await mkdir(planted);
      if (kind === 'link') await symlink(join(cwd, 'outside.json'), planted);
      const result = await init('init', 'taken');
      expect(result.code).toBe(1);
      expect(result.err).toContain('is not empty');
      expect(result.err).toContain('nothing was written');
      expect(await readdir(folder)).toEqual([entry]);
      if (kind === 'file') expect(await readFile(planted, 'utf8')).toBe('the user’s own\n');
      if (kind === 'folder') expect(await readdir(planted)).toEqual([]);
      if (kind === 'link') expect((await lstat(planted)).isSymbolicLink()).toBe(true);
      // Nothing appeared beside it or where the link points.
      expect((await readdir(cwd)).sort()).toEqual(['taken']);
    });
  }

  it('refuses a path that is a file', async () => {
    await writeFile(join(cwd, 'a-file'), 'text\n');
    const result = await init('init', 'a-file');
    expect(result.code).toBe(1);
    expect(result.err).toContain('is not a folder');
    expect(await readFile(join(cwd, 'a-file'), 'utf8')).toBe('text\n');
  });
});
