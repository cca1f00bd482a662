/**
 * One page of `read` (BYTES-1, seed 003: "larger reads go through read with byte ranges"): the rows
 * of a file from a byte `offset`, covering at most `limit` bytes of the file and 200 KB of output,
 * numbered `cat -n` style.
 *
 * Lines are kept whole at both edges. An offset inside a line (inside a UTF-8 sequence included)
 * starts the page at that line's first byte; the page ends after the last row that fits, and the
 * closing line names the byte offset of the next row, which is where the next page starts. A line
 * longer than 64 KB is shown as rows of at most 64 KB cut between whole characters; rows after the
 * first are numbered `N+`, and an offset inside such a line starts at the row holding it, so every
 * page makes progress. Rows joined by `\n` (nothing before an `N+` row), page after page, rebuild
 * the file byte for byte; a final newline shows as an empty last line.
 */
import type { ToolResult } from '../../spec/index.js';

/** Seed 003: read's output cap, and the bytes of the file a page covers by default. */
export const READ_MAX_OUTPUT_BYTES = 200 * 1024;
/** The longest row; longer lines are split into several rows. */
export const READ_MAX_ROW_BYTES = 64 * 1024;
/** Room kept for the closing line under the output cap. */
const FOOTER_BYTES = 256;
const NEWLINE = 0x0a;

interface Row {
  start: number;
  end: number;
  /** 1-based line number. */
  line: number;
  /** Continues the line of the row before (a line longer than one row). */
  continued: boolean;
}

/** Where a row starting at `start` of a line ending at `lineEnd` ends: at most one row, whole characters. */
function rowEnd(bytes: Uint8Array, start: number, lineEnd: number): number {
  if (lineEnd - start <= READ_MAX_ROW_BYTES) return lineEnd;
  let end = start + READ_MAX_ROW_BYTES;
  // Back off continuation bytes (10xxxxxx): a cut never splits a character.
  while (end > start + 1 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return end;
}

function lineEndAt(bytes: Uint8Array, start: number): number {
  const end = bytes.indexOf(NEWLINE, start);
  return end === -1 ? bytes.length : end;
}

/** Newlines before `end`. */
function newlinesBefore(bytes: Uint8Array, end: number): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1 && index < end; index = bytes.indexOf(NEWLINE, index + 1)) {
    count++;
  }
  return count;
}

/** The row holding byte `offset` (0 <= offset <= length): its line's start, then the row within it. */
function rowAt(bytes: Uint8Array, offset: number): Row {
  const lineStart = offset === 0 ? 0 : bytes.lastIndexOf(NEWLINE, offset - 1) + 1;
  const lineEnd = lineEndAt(bytes, lineStart);
  const line = newlinesBefore(bytes, lineStart) + 1;
  let start = lineStart;
  let end = rowEnd(bytes, start, lineEnd);
  while (end <= offset && end < lineEnd) {
    start = end;
    end = rowEnd(bytes, start, lineEnd);
  }
  return { start, end, line, continued: start > lineStart };
}

/** The row after `row`, or null at the end of the file. */
function nextRow(bytes: Uint8Array, row: Row): Row | null {
  if (row.end < bytes.length && bytes[row.end] !== NEWLINE) {
    return { start: row.end, end: rowEnd(bytes, row.end, lineEndAt(bytes, row.end)), line: row.line, continued: true };
  }
  if (row.end >= bytes.length) return null;
  const start = row.end + 1;
  return { start, end: rowEnd(bytes, start, lineEndAt(bytes, start)), line: row.line + 1, continued: false };
}

/** Where the row after `row` starts: past its newline when it ends a line. */
function after(bytes: Uint8Array, row: Row): number {
  return row.end < bytes.length && bytes[row.end] === NEWLINE ? row.end + 1 : row.end;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function render(bytes: Uint8Array, row: Row): string {
  // ignoreBOM keeps a byte order mark as U+FEFF, so what is shown is the whole file.
  const text = decoder.decode(bytes.subarray(row.start, row.end));
  return `${String(row.line).padStart(6)}${row.continued ? '+' : ''}\t${text}`;
}

/** The page of `bytes` from byte `offset`, covering at most `limit` bytes of it and the output cap. */
export function bytePage(bytes: Uint8Array, offset: number, limit: number): ToolResult {
  if (offset > bytes.length) {
    return {
      status: 'error',
      error: `offset ${offset} is past the end of the file, which has ${bytes.length} bytes`,
    };
  }
  const encoder = new TextEncoder();
  const budget = READ_MAX_OUTPUT_BYTES - FOOTER_BYTES;
  const first = rowAt(bytes, offset);
  const shown: string[] = [];
  let used = 0;
  let row: Row | null = first;
  let last = first;
  let why = '';
  while (row) {
    const line = render(bytes, row);
    const outputBytes = encoder.encode(line).byteLength + 1;
    if (shown.length > 0 && after(bytes, row) - first.start > limit) why = `limit ${limit} bytes`;
    else if (shown.length > 0 && used + outputBytes > budget)
      why = `the ${READ_MAX_OUTPUT_BYTES / 1024} KB output limit was reached`;
    if (why) break;
    shown.push(line);
    used += outputBytes;
    last = row;
    row = nextRow(bytes, row);
  }
  if (!row) return { status: 'success', result: shown.join('\n') };
  const next = after(bytes, last);
  const lines = newlinesBefore(bytes, bytes.length) + 1;
  const footer =
    `[Lines ${first.line}-${last.line} of ${lines}, bytes ${first.start}-${next - 1} of ${bytes.length} ` +
    `(${why}); read on with offset ${next}.]`;
  return { status: 'success', result: `${shown.join('\n')}\n${footer}` };
}
