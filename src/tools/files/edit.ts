/**
 * `edit` (LOCK-1, LOCK-2, seed 003): string replacement in an existing text file, nothing more.
 *
 * - `old_string` must occur exactly once, or `replace_all` must be set to replace every occurrence.
 *   A missing or non-unique `old_string` fails and writes nothing: the file stays byte-identical.
 * - Line endings are preserved: in a file that mostly uses CRLF, the `\n` of `old_string` and
 *   `new_string` stand for `\r\n` (models usually send LF). A byte order mark, the mime type and every
 *   byte outside the replaced spans are kept as they are.
 * - `old_string` equal to `new_string`, an empty `old_string`, a binary file or one that is not UTF-8
 *   are errors, again writing nothing.
 */
import { z } from 'zod';
import { looksBinary } from '../../engine/files/index.js';
import { defineTool } from '../../spec/index.js';
import { binaryFileError, missingFileError, tooLargeError } from './read.js';

/** Whether the file's lines mostly end in CRLF. */
function usesCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1;
  return crlf > 0 && crlf * 2 >= lf;
}

/** `\n` and `\r\n` in `value` written as `\r\n`. */
function toCrlf(value: string): string {
  return value.replace(/\r?\n/g, '\r\n');
}

/** Start indexes of the non-overlapping occurrences of `needle`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    found.push(index);
  }
  return found;
}

/** Replaces the spans at `at` (each `length` long) with `replacement`, without `$` patterns. */
function replaceAt(text: string, at: readonly number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const index of at) {
    parts.push(text.slice(from, index), replacement);
    from = index + length;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const args = z.object({
  path: z.string().min(1).describe('The file to edit'),
  old_string: z.string().describe('The exact text to replace, with enough surrounding lines to be unique'),
  new_string: z.string().describe('The text to put in its place'),
  replace_all: z.boolean().default(false).describe('Whether to replace every occurrence of old_string'),
});

export const edit = defineTool({
  description: 'Replace an exact string in a text file of the thread filesystem with a new string',
  args,
  acpKind: 'edit',
  requires: { fs: { read: ['{workspace}/**'], write: ['{workspace}/**'] } },
  access: (input) => ({ read: [input.path], write: [input.path], subject: input.path }),
  execute: async (state, input) => {
    const unchanged = `; ${input.path} was not changed`;
    if (input.old_string === '') return { status: 'error', error: `old_string is empty${unchanged}` };
    if (input.old_string === input.new_string) {
      return { status: 'error', error: `old_string and new_string are identical${unchanged}` };
    }
    const stat = await state.statFile(input.path);
    const tooLarge = stat && tooLargeError(stat);
    if (tooLarge) return { status: 'error', error: `${tooLarge}${unchanged}` };
    const buffer = stat && !stat.isDirectory ? await state.readFile(stat.path) : null;
    const bytes = buffer && new Uint8Array(buffer);
    if (!stat || !bytes) return { status: 'error', error: await missingFileError(state, input.path) };
    if (looksBinary(bytes)) return { status: 'error', error: `${binaryFileError(stat)}${unchanged}` };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return { status: 'error', error: `${stat.path} is not valid UTF-8 text${unchanged}` };
    }

    // In a CRLF file, try the strings with CRLF first, then as sent (a file with mixed endings).
    const candidates: Array<[string, string]> = [];
    if (usesCrlf(text)) candidates.push([toCrlf(input.old_string), toCrlf(input.new_string)]);
    candidates.push([input.old_string, input.new_string]);
    let found: number[] = [];
    let chosen = candidates[0] as [string, string];
    for (const candidate of candidates) {
      found = occurrences(text, candidate[0]);
      chosen = candidate;
      if (found.length > 0) break;
    }
    if (found.length === 0) {
      return {
        status: 'error',
        error: `old_string was not found in ${stat.path}; read the file and copy the text exactly, whitespace included${unchanged}`,
      };
    }
    if (found.length > 1 && !input.replace_all) {
      return {
        status: 'error',
        error: `old_string occurs ${found.length} times in ${stat.path}; add surrounding lines to make it unique, or set replace_all to replace every occurrence${unchanged}`,
      };
    }
    const [oldString, newString] = chosen;
    if (oldString === newString) {
      return { status: 'error', error: `old_string and new_string differ only in line endings${unchanged}` };
    }
    const edited = replaceAt(text, found, oldString.length, newString);
    const ref = await state.writeFile(stat.path, edited, { mimeType: stat.mimeType });
    const count = found.length === 1 ? '1 occurrence' : `${found.length} occurrences`;
    return { status: 'success', result: `Edited ${ref.path}: replaced ${count} (${ref.size} bytes)` };
  },
});
