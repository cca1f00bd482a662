/**
 * `read` (LOCK-1, seed 003): a text file of the thread filesystem as numbered lines, `cat -n` style.
 *
 * - `offset` is the 1-based number of the first line shown, as numbered in the output (0 also means
 *   the first line); `limit` is how many lines at most (default 2000).
 * - The output stays under 200 KB: a longer read stops early and names the `offset` to go on with,
 *   so large files (and truncation sidecars, LOCK-6) are paged, never cut by the truncation path.
 * - A line longer than 64 KB is shown as several rows of at most 64 KB, each split at whole UTF-8
 *   characters; rows after the first are numbered `N+` and count as lines for `offset` and `limit`.
 *   So every row fits in a page, and rows joined by `\n` (nothing before a `N+` row) rebuild the
 *   file exactly: the pages of a sidecar concatenate to the original byte for byte.
 * - Binary files (a NUL byte or bytes that are not UTF-8 in the first 8 KB) are refused with their
 *   size and mime type; a missing file or a directory is a clear error that suggests listing.
 * - A file over 32 MB is refused: ThreadState reads whole files, and a Durable Object has 128 MB.
 */
import { z } from 'zod';
import { looksBinary, normalizeThreadPath, utf8ByteLength, utf8CutIndex } from '../../engine/files/index.js';
import { defineTool, type FileStat, type ThreadState, type ToolResult } from '../../spec/index.js';

/** Seed 003: read's output cap. */
export const READ_MAX_OUTPUT_BYTES = 200 * 1024;
/** The longest row; longer lines are split into several rows. */
export const READ_MAX_ROW_BYTES = 64 * 1024;
export const READ_DEFAULT_LIMIT = 2000;
/** Files read (and edited) at most: the whole file is held in memory, twice while decoding. */
export const READ_MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Room kept for the closing line under the output cap. */
const FOOTER_BYTES = 256;

/** The error for a path that names no file: a directory, or nothing at all. */
export async function missingFileError(state: ThreadState, path: string): Promise<string> {
  const normalized = normalizeThreadPath(path);
  const entries = await state.readdirFile(normalized);
  if (entries.length > 0) {
    return `${normalized} is a directory (${entries.length} entries), not a file; list its files with glob (pattern "*", path "${normalized}")`;
  }
  return `File not found: ${normalized}; list the files with glob (pattern "**/*") to find the right path`;
}

/** The error for a binary file, with its size and mime type. */
export function binaryFileError(stat: FileStat): string {
  return `${stat.path} is a binary file (${stat.size} bytes, ${stat.mimeType}); it cannot be shown as text`;
}

/** The error for a file too large to hold in memory, or null. */
export function tooLargeError(stat: FileStat): string | null {
  if (stat.size <= READ_MAX_FILE_BYTES) return null;
  return `${stat.path} is ${stat.size} bytes, over the ${READ_MAX_FILE_BYTES / 1024 / 1024} MB a tool can read as text`;
}

interface Row {
  text: string;
  /** Continues the line of the row before (a line longer than one row). */
  continued: boolean;
}

/** The rows of a line: the line itself, or pieces of at most READ_MAX_ROW_BYTES whole characters. */
function* rowsOfLine(line: string): Generator<Row> {
  if (line.length * 3 <= READ_MAX_ROW_BYTES) {
    yield { text: line, continued: false };
    return;
  }
  let start = 0;
  do {
    const end = Math.max(utf8CutIndex(line, start, READ_MAX_ROW_BYTES), start + 1);
    yield { text: line.slice(start, end), continued: start > 0 };
    start = end;
  } while (start < line.length);
}

/** Every row of the text: lines split at `\n` (a final newline leaves an empty last line). */
function* rowsOf(text: string): Generator<Row> {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    yield* rowsOfLine(end === -1 ? text.slice(start) : text.slice(start, end));
    if (end === -1) return;
    start = end + 1;
  }
}

function render(number: number, row: Row): string {
  return `${String(number).padStart(6)}${row.continued ? '+' : ''}\t${row.text}`;
}

/** The page of `text` starting at row `first` (1-based), at most `limit` rows and the output budget. */
export function numberedPage(text: string, first: number, limit: number): ToolResult {
  const budget = READ_MAX_OUTPUT_BYTES - FOOTER_BYTES;
  const shown: string[] = [];
  let used = 0;
  let capped = false;
  let total = 0;
  for (const row of rowsOf(text)) {
    total++;
    if (total < first || shown.length >= limit || capped) continue;
    const line = render(total, row);
    const bytes = utf8ByteLength(line) + 1;
    if (shown.length > 0 && used + bytes > budget) {
      capped = true;
      continue;
    }
    shown.push(line);
    used += bytes;
  }
  if (first > total) {
    return { status: 'error', error: `offset ${first} is past the end of the file, which has ${total} lines` };
  }
  const last = first + shown.length - 1;
  if (last >= total) return { status: 'success', result: shown.join('\n') };
  const why = capped ? `the ${READ_MAX_OUTPUT_BYTES / 1024} KB output limit was reached` : `limit ${limit}`;
  const footer = `[Lines ${first}-${last} of ${total} (${why}); read on with offset ${last + 1}.]`;
  return { status: 'success', result: `${shown.join('\n')}\n${footer}` };
}

const args = z.object({
  path: z.string().min(1).describe('The file to read, e.g. "/notes/todo.md"'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(1)
    .describe('The number of the first line to show, counting from 1 as the output numbers lines'),
  limit: z.number().int().min(1).default(READ_DEFAULT_LIMIT).describe('The most lines to show'),
});

export const read = defineTool({
  description: 'Read a text file of the thread filesystem as numbered lines, from a starting line up to a line count',
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
    const bytes = stat ? await state.readFile(stat.path) : null;
    if (!stat || !bytes) return { status: 'error', error: await missingFileError(state, input.path) };
    if (looksBinary(bytes)) return { status: 'error', error: binaryFileError(stat) };
    if (bytes.byteLength === 0) return { status: 'success', result: '(empty file)' };
    // ignoreBOM keeps a byte order mark as U+FEFF, so what is shown is the whole file.
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
    return numberedPage(text, Math.max(1, input.offset), input.limit);
  },
});
