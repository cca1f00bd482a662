/**
 * The command line of `npx standard-agents-cloudflare init <folder>`: reads the arguments, writes
 * the project, and says what to run next. It returns an exit code rather than exiting, so tests
 * call it as the command does.
 */
import { relative } from 'node:path';
import { type ProjectVersions, projectVersions } from './versions.js';
import { type InitOutcome, writeProject } from './write-project.js';

export interface CliIo {
  cwd: string;
  log: (line: string) => void;
  error: (line: string) => void;
  /** The versions a project depends on; by default this package's manifest's. */
  versions?: ProjectVersions;
}

export const USAGE = `Usage: npx standard-agents-cloudflare init <folder>

Writes a new Worker project into <folder> (new, or empty): wrangler.toml with every binding,
tsconfig.json, .dev.vars with a development key and demo mode, and one agent with one tool.`;

/** Runs the command with its arguments (after the command name); resolves to the exit code. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    (args.length === 0 ? io.error : io.log)(USAGE);
    return args.length === 0 ? 1 : 0;
  }
  const [command, folder, ...extra] = args;
  if (command !== 'init' || folder === undefined || extra.length > 0 || folder.startsWith('-')) {
    io.error(USAGE);
    return 1;
  }
  let outcome: InitOutcome;
  try {
    outcome = await writeProject(io.cwd, folder, io.versions ?? projectVersions());
  } catch (error) {
    // The file system refused a write (permissions, a full disk): its words, not a stack.
    outcome = { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (!outcome.ok) {
    io.error(`standard-agents-cloudflare init: ${outcome.reason}`);
    return 1;
  }
  const where = relative(io.cwd, outcome.dir) || '.';
  io.log(`Wrote ${outcome.name} in ${where}: ${outcome.files.join(', ')}.\n`);
  // Written into the folder the user is in (init .): there is nowhere to cd to.
  const cd = where === '.' ? '' : `  cd ${shellWord(where)}\n`;
  io.log(`Next:\n${cd}  npm install\n  npm run dev     # http://localhost:8787, key dev-key`);
  return 0;
}

/** A path as one word a shell reads back unchanged: single-quoted unless it is plain. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
