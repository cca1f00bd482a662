/**
 * `grep` (LOCK-1, seed 003): lines matching a regular expression (JavaScript syntax) in the text files
 * under `path`, as `path:line:text`, sorted by path then line. `glob` filters the files (a pattern
 * without `/` matches file names at any depth, as in `rg -g`); `case_insensitive` sets the `i` flag.
 * The pattern and the glob come from a model, so both run on a linear-time engine (engine/patterns):
 * a pattern that would backtrack for minutes is answered at once, and a construct with no
 * linear-time form (a lookahead, a backreference) is refused by name.
 * Binary files and files over 5 MB are skipped; a line is shown up to 2000 characters. Past 200
 * matches the model gets the first 200 and every match goes to a sidecar file (LOCK-6, entry limit).
 * Sidecars of earlier calls (`/.tool-output/`) are searched only when `path` is inside that folder.
 */
import { z } from 'zod';
import {
  looksBinary,
  normalizeThreadPath,
  SIDECAR_DIRECTORY,
  utf8ByteLength,
  withEntryLimit,
} from '../../engine/files/index.js';
import { compileGlob, compileLinearRegex, type LinearRegex, PatternRefused } from '../../engine/patterns/index.js';
import { type DirectoryEntry, defineTool, type ThreadState } from '../../spec/index.js';

/** Seed 003: the 201st match triggers truncation. */
export const GREP_MAX_MATCHES = 200;
/** Matches (and bytes of them) gathered at most, for the sidecar; the search stops there. */
const GREP_HARD_LIMIT = 20_000;
const GREP_HARD_LIMIT_BYTES = 8 * 1024 * 1024;
const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;
const GREP_MAX_LINE_CHARS = 2000;

/** The files under `root` (or `root` itself if it is a file), sorted by path; null if nothing is there. */
async function filesUnder(state: ThreadState, root: string): Promise<DirectoryEntry[] | null> {
  const single = root === '/' ? null : await state.statFile(root);
  if (single && !single.isDirectory) return [{ name: single.name, path: single.path, kind: 'file', size: single.size }];
  const files: DirectoryEntry[] = [];
  const folders = [root];
  let listedRoot = false;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const { entries } = await state.readdirFile(folder);
    if (folder === root) listedRoot = entries.length > 0;
    for (const entry of entries) {
      if (entry.kind === 'file') files.push(entry);
      else if (entry.path !== SIDECAR_DIRECTORY) folders.push(entry.path);
    }
  }
  if (!listedRoot && root !== '/') return null;
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The pattern and the glob compiled, or why one of them is refused. */
function compile(input: { pattern: string; case_insensitive: boolean; glob: string }) {
  try {
    const regex: LinearRegex = compileLinearRegex(input.pattern, { ignoreCase: input.case_insensitive });
    const wanted = input.glob === '' ? null : compileGlob(input.glob, { basename: true });
    return { regex, wanted };
  } catch (error) {
    if (error instanceof PatternRefused) return error.message;
    throw error;
  }
}

/** Lets other work run, and a stop be seen, between slices of a long search. */
const YIELD_EVERY_CHARS = 256 * 1024;
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const args = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A regular expression in JavaScript syntax, e.g. "function\\s+\\w+" (no lookaheads or backreferences)'),
  path: z.string().default('/').describe('The folder or file to search'),
  glob: z.string().default('').describe('Only files whose paths match this glob, e.g. "*.ts"; empty for all'),
  case_insensitive: z.boolean().default(false).describe('Whether letter case is ignored'),
});

export const grep = withEntryLimit(
  defineTool({
    description: 'Search the text files of the thread filesystem for lines matching a regular expression',
    args,
    acpKind: 'search',
    requires: { fs: { read: ['{workspace}/**'] } },
    access: (input) => ({ read: [input.path], subject: input.pattern }),
    readOnly: true,
    concurrent: true,
    execute: async (state, input) => {
      const compiled = compile(input);
      if (typeof compiled === 'string') return { status: 'error', error: compiled };
      const { regex, wanted } = compiled;
      const root = normalizeThreadPath(input.path);
      const files = await filesUnder(state, root);
      if (!files) return { status: 'error', error: `No file or folder at ${root}` };
      let sinceYield = 0;
      const prefix = root === '/' ? 1 : root.length + 1;
      const matches: string[] = [];
      let skipped = 0;
      let bytes = 0;
      const decoder = new TextDecoder();
      for (const file of files) {
        if (state.execution?.abortSignal.aborted) return { status: 'error', error: 'grep was stopped' };
        if (wanted && !wanted(files.length === 1 && file.path === root ? file.name : file.path.slice(prefix))) {
          continue;
        }
        if ((file.size ?? 0) > GREP_MAX_FILE_BYTES) {
          skipped++;
          continue;
        }
        const buffer = await state.readFile(file.path);
        const content = buffer && new Uint8Array(buffer);
        if (!content || looksBinary(content)) continue;
        const lines = decoder.decode(content).split('\n');
        for (let index = 0; index < lines.length; index++) {
          const line = (lines[index] as string).replace(/\r$/, '');
          sinceYield += line.length + 1;
          if (sinceYield >= YIELD_EVERY_CHARS) {
            sinceYield = 0;
            await pause();
            if (state.execution?.abortSignal.aborted) return { status: 'error', error: 'grep was stopped' };
          }
          if (!regex.test(line)) continue;
          const text = line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}[...]` : line;
          const match = `${file.path}:${index + 1}:${text}`;
          matches.push(match);
          bytes += utf8ByteLength(match) + 1;
          if (matches.length >= GREP_HARD_LIMIT || bytes >= GREP_HARD_LIMIT_BYTES) {
            matches.push(`[The search stopped after ${matches.length} matches.]`);
            return { status: 'success', result: matches.join('\n') };
          }
        }
      }
      if (skipped > 0) matches.push(`[Skipped ${skipped} files larger than 5 MB.]`);
      if (matches.length === 0) {
        return { status: 'success', result: `No matches for /${input.pattern}/ under ${root}` };
      }
      return { status: 'success', result: matches.join('\n') };
    },
  }),
  GREP_MAX_MATCHES,
);
