/**
 * `read` (LOCK-1, seed 003): a text file of the thread filesystem as numbered lines, `cat -n` style.
 *
 * - Pages are byte ranges (BYTES-1): `offset` is the byte to start at (default 0), `limit` the most
 *   bytes of the file to show (default 200 KB); lines are kept whole at both edges (byte-page.ts).
 * - The output stays under 200 KB: a longer read stops early and names the `offset` to go on with,
 *   so large files (and truncation sidecars, LOCK-6) are paged, never cut by the truncation path.
 * - A line longer than 64 KB is shown as several rows of at most 64 KB, each split at whole UTF-8
 *   characters and numbered `N+` after the first; the pages of a sidecar rebuild it byte for byte.
 * - A truncation sidecar the thread's alarm removed reads as expired (SIDE-1, expired-sidecar.ts).
 * - Binary files (a NUL byte or bytes that are not UTF-8 in the first 8 KB) are refused with their
 *   size and mime type; a missing file or a directory is a clear error that suggests listing.
 * - A file over 32 MB is refused: ThreadState reads whole files, and a Durable Object has 128 MB.
 */
import { z } from 'zod';
import { looksBinary, normalizeThreadPath } from '../../engine/files/index.js';
import { defineTool, type FileRecord, type ThreadState } from '../../spec/index.js';
import { bytePage, READ_MAX_OUTPUT_BYTES } from './byte-page.js';
import { expiredSidecarError } from './expired-sidecar.js';

export { READ_MAX_OUTPUT_BYTES, READ_MAX_ROW_BYTES } from './byte-page.js';
/** Files read (and edited) at most: the whole file is held in memory, twice while decoding. */
export const READ_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** The error for a path that names no file: a directory, or nothing at all. */
export async function missingFileError(state: ThreadState, path: string): Promise<string> {
  const normalized = normalizeThreadPath(path);
  const { entries } = await state.readdirFile(normalized);
  if (entries.length > 0) {
    return `${normalized} is a directory (${entries.length} entries), not a file; list its files with glob (pattern "*", path "${normalized}")`;
  }
  return `File not found: ${normalized}; list the files with glob (pattern "**/*") to find the right path`;
}

/** The error for a binary file, with its size and mime type. */
export function binaryFileError(stat: FileRecord): string {
  return `${stat.path} is a binary file (${stat.size} bytes, ${stat.mimeType}); it cannot be shown as text`;
}

/** The error for a file too large to hold in memory, or null. */
export function tooLargeError(stat: FileRecord): string | null {
  if (stat.size <= READ_MAX_FILE_BYTES) return null;
  return `${stat.path} is ${stat.size} bytes, over the ${READ_MAX_FILE_BYTES / 1024 / 1024} MB a tool can read as text`;
}

const args = z.object({
  path: z.string().min(1).describe('The file to read, e.g. "/notes/todo.md"'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('The byte to start at; the page starts at the beginning of the line holding it'),
  limit: z
    .number()
    .int()
    .min(1)
    .default(READ_MAX_OUTPUT_BYTES)
    .describe('The most bytes of the file to show, in whole lines'),
});

export const read = defineTool({
  description: 'Read a text file of the thread filesystem as numbered lines, from a starting byte up to a byte count',
  args,
  acpKind: 'read',
  requires: { fs: { read: ['{workspace}/**'] } },
  access: (input) => ({ read: [input.path], subject: input.path }),
  readOnly: true,
  concurrent: true,
  maxOutputBytes: READ_MAX_OUTPUT_BYTES,
  execute: async (state, input) => {
    const stat = await state.statFile(input.path);
    const tooLarge = stat && tooLargeError(stat);
    if (tooLarge) return { status: 'error', error: tooLarge };
    const buffer = stat && !stat.isDirectory ? await state.readFile(stat.path) : null;
    const bytes = buffer && new Uint8Array(buffer);
    if (!stat || !bytes) {
      // SIDE-1: a sidecar the alarm removed reads as expired, not as a wrong path.
      const expired = await expiredSidecarError(state, input.path);
      return { status: 'error', error: expired ?? (await missingFileError(state, input.path)) };
    }
    if (looksBinary(bytes)) return { status: 'error', error: binaryFileError(stat) };
    if (bytes.byteLength === 0) return { status: 'success', result: '(empty file)' };
    return bytePage(bytes, input.offset, input.limit);
  },
});
