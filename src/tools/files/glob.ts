/**
 * `glob` (LOCK-1, seed 003): the files of the thread filesystem whose paths match a glob, sorted, one
 * absolute path per line. A relative pattern is taken from `path` (default the root); a pattern
 * starting with `/` from the root. Past 1000 paths the model gets the first 1000 and the whole list
 * goes to a sidecar file (LOCK-6, entry limit). Sidecars of earlier calls (`/.tool-output/`) are left
 * out unless the pattern itself starts there, so one large listing does not pad the next.
 */
import { z } from 'zod';
import { normalizeThreadPath, SIDECAR_DIRECTORY, withEntryLimit } from '../../engine/files/index.js';
import { defineTool } from '../../spec/index.js';

/** Seed 003: the 1001st entry triggers truncation. */
export const GLOB_MAX_ENTRIES = 1000;
/** Paths gathered at most; the listing itself stops earlier on very large filesystems. */
const GLOB_HARD_LIMIT = 100_000;

/** A folder path as a literal inside a glob. */
function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@\\]/g, '\\$&');
}

/** The pattern from the root: absolute as given, or relative to `base`. */
export function globFromRoot(pattern: string, base: string): string {
  if (pattern.startsWith('/')) return pattern;
  const relative = pattern.replace(/^(\.\/)+/, '');
  const folder = normalizeThreadPath(base);
  return folder === '/' ? `/${relative}` : `${escapeGlob(folder)}/${relative}`;
}

const args = z.object({
  pattern: z.string().min(1).describe('A glob such as "**/*.ts" or "docs/*.md"'),
  path: z.string().default('/').describe('The folder a relative pattern starts from'),
});

export const glob = withEntryLimit(
  defineTool({
    description: 'List the files of the thread filesystem whose paths match a glob pattern',
    args,
    acpKind: 'search',
    requires: { fs: { read: ['{workspace}/**'] } },
    access: (input) => ({ read: [input.path], subject: input.pattern }),
    readOnly: true,
    concurrent: true,
    execute: async (state, input) => {
      const pattern = globFromRoot(input.pattern, input.path);
      const sidecars = `${SIDECAR_DIRECTORY}/`;
      const found = await state.findFiles(pattern, { limit: GLOB_HARD_LIMIT });
      const paths = pattern.startsWith(sidecars) ? found : found.filter((path) => !path.startsWith(sidecars));
      if (paths.length === 0) return { status: 'success', result: `No files match ${pattern}` };
      return { status: 'success', result: paths.join('\n') };
    },
  }),
  GLOB_MAX_ENTRIES,
);
