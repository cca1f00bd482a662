/**
 * Thread paths (ATT-3): every path a tool, a model, the shell or a client names is normalised to an
 * absolute path inside the thread's root, in Unicode NFC, or refused. Refusal is deliberate rather
 * than clever resolution: `..`, encoded traversal, NUL bytes and characters nobody can see
 * (name-characters.ts) have no legitimate use in a thread filesystem.
 */
import { canonicalText, invisibleCharacterIn } from './name-characters.js';

export class PathError extends Error {
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`invalid path ${JSON.stringify(input.slice(0, 200))}: ${reason}`);
    this.name = 'PathError';
  }
}

/** R2 keys are at most 1024 bytes; leave room for the thread prefix. */
export const MAX_PATH_BYTES = 900;
/** Common filesystem limit on one name. */
export const MAX_SEGMENT_BYTES = 255;

// Percent-encoded '.', '/', '\' or NUL left after the URL was decoded once: encoded traversal.
const ENCODED_SEPARATOR = /%(2e|2f|5c|00|25)/i;
// C0, DEL, C1 and the Unicode line separators: invisible in listings, dangerous in headers and logs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const encoder = new TextEncoder();

/**
 * Returns `/a/b.txt` for `a/b.txt`, `/a//b.txt` or `./a/b.txt`; `/` for the root; `/café` for `café`
 * in either Unicode form. The one canonical form every rule, listing and store key uses.
 */
export function normalizeThreadPath(input: string): string {
  if (typeof input !== 'string') throw new PathError(String(input), 'a path must be a string');
  if (input.includes('\u0000')) throw new PathError(input, 'NUL bytes are not allowed');
  if (CONTROL_CHARACTER.test(input)) throw new PathError(input, 'control characters are not allowed');
  const invisible = invisibleCharacterIn(input);
  if (invisible) {
    throw new PathError(input, `invisible or bidirectional control characters are not allowed (${invisible})`);
  }
  if (input.includes('\\')) throw new PathError(input, 'backslashes are not allowed; use "/"');
  if (ENCODED_SEPARATOR.test(input)) {
    throw new PathError(input, 'percent-encoded dots, slashes or NUL bytes are not allowed');
  }
  const segments: string[] = [];
  for (const segment of canonicalText(input).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw new PathError(input, '".." segments are not allowed');
    if (encoder.encode(segment).byteLength > MAX_SEGMENT_BYTES) {
      throw new PathError(input, `a name is longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
    segments.push(segment);
  }
  const path = `/${segments.join('/')}`;
  if (encoder.encode(path).byteLength > MAX_PATH_BYTES) {
    throw new PathError(input, `the path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  return path;
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The directory prefix of a normalised path, with a trailing slash (`/` for the root). */
export function directoryPrefix(path: string): string {
  return path === '/' ? '/' : `${path}/`;
}
