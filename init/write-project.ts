/**
 * Writes a new project into a folder that is new or empty. The folder is checked before anything is
 * written, and each file is created exclusively (never opened if something, a link included, is
 * already at its path), so running init never changes a file the user already has.
 */
import type { Stats } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { projectFiles } from './project-files.js';
import { MAX_PROJECT_NAME, projectName } from './project-name.js';
import type { ProjectVersions } from './versions.js';

export type InitOutcome = { ok: true; dir: string; name: string; files: string[] } | { ok: false; reason: string };

/** What a folder may already hold: a repository just made with `git init` is still an empty project. */
const ALLOWED_ENTRIES = new Set(['.git']);

/** Why the folder cannot take a new project, or null when it can (it does not exist, or is empty). */
async function folderProblem(dir: string): Promise<string | null> {
  let found: Stats;
  try {
    found = await stat(dir);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    // A name too long, a folder not readable: said in the file system's words, not as a stack.
    return code === 'ENOENT' ? null : `cannot use ${dir}: ${message}`;
  }
  if (!found.isDirectory()) return `${dir} exists and is not a folder`;
  const entries = (await readdir(dir)).filter((entry) => !ALLOWED_ENTRIES.has(entry));
  if (entries.length === 0) return null;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', ...' : '');
  return `${dir} is not empty (${shown}): choose a new or empty folder, nothing was written`;
}

/** Writes the project into `target` (relative to `cwd`). */
export async function writeProject(cwd: string, target: string, versions: ProjectVersions): Promise<InitOutcome> {
  const dir = resolve(cwd, target);
  const name = projectName(basename(dir));
  if (!name) {
    return {
      ok: false,
      reason: `cannot make a project name of "${basename(dir)}": use a folder name with letters or digits (a-z, 0-9, up to ${MAX_PROJECT_NAME})`,
    };
  }
  const problem = await folderProblem(dir);
  if (problem) return { ok: false, reason: problem };
  const files = projectFiles(name, versions);
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    // 'wx': create, and fail if anything is at the path, whatever appeared since the check.
    await writeFile(path, file.text, { flag: 'wx' });
  }
  return { ok: true, dir, name, files: files.map((file) => file.path) };
}
