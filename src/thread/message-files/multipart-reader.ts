/**
 * A `multipart/form-data` body read as it arrives (RFC 7578, RFC 2046 §5.1): each part's headers,
 * then its bytes as an async iterable, so a file part of any size passes through in pieces and is
 * never held whole.
 *
 * Why not a library: the remix / mjackson parsers buffer each part whole before handing it on, which
 * rules them out for files larger than memory. `@web3-storage/multipart-parser` streams a part's
 * data, but it gathers a part's header lines with no bound (a body whose headers never end grows
 * memory until the isolate dies) and, when the caller asks for the next part, it reads the rest of
 * the current one into an array. Neither can be bounded from outside: a counting stream in front sees
 * only the whole body, and the whole body of a large upload is rightly large. So this reader is
 * small and holds, at any time, at most one chunk of the body plus a boundary's length (file data),
 * or `maxHeaderBytes` (a part's headers, and the preamble before the first boundary): past that
 * it throws MultipartError.
 */

/** What a malformed body, or one that ends inside a part, throws. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

export interface MultipartPart {
  /** The form field's name (`content-disposition: form-data; name=...`). */
  name: string;
  /** The file name a file part carries, or null for a plain field. */
  filename: string | null;
  /** The part's Content-Type header, or null. */
  contentType: string | null;
  /** The part's bytes; read it before asking for the next part (what is left unread is skipped). */
  body: AsyncIterable<Uint8Array>;
}

export interface MultipartReadLimits {
  /** Bytes a part's header block (and the preamble) may take. */
  maxHeaderBytes: number;
  /** Parts the body may hold, fields and files together. */
  maxParts: number;
}

const CR = 13;
const LF = 10;
const CRLF = new Uint8Array([CR, LF]);
const HEADER_END = new Uint8Array([CR, LF, CR, LF]);
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary of a `multipart/form-data` Content-Type, or null when it is not one or has none fit to use. */
export function multipartBoundary(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return null;
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals === -1 || param.slice(0, equals).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return BOUNDARY.test(value) ? value : null;
  }
  return null;
}

/** Where `needle` starts in `hay` at or after `from`, or -1. */
function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const last = hay.length - needle.length;
  for (
    let at = hay.indexOf(needle[0] as number, from);
    at !== -1 && at <= last;
    at = hay.indexOf(needle[0] as number, at + 1)
  ) {
    let matched = 1;
    while (matched < needle.length && hay[at + matched] === needle[matched]) matched++;
    if (matched === needle.length) return at;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** The body's bytes not yet handed on, refilled from the stream a chunk at a time. */
class BodyBuffer {
  bytes: Uint8Array;
  ended = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    start: Uint8Array,
  ) {
    this.bytes = start;
  }

  /** Reads one more chunk; false once the stream has ended. */
  async more(): Promise<boolean> {
    if (this.ended) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.ended = true;
      return false;
    }
    this.bytes = concat(this.bytes, value);
    return true;
  }

  /** Drops the first `count` bytes and returns them. */
  take(count: number): Uint8Array {
    const taken = this.bytes.subarray(0, count);
    this.bytes = this.bytes.subarray(count);
    return taken;
  }
}

/**
 * The bytes up to `delimiter` (dropped with it), looking at most `max` bytes ahead; throws when the
 * body ends first or the delimiter is not within reach.
 */
async function readUntil(buffer: BodyBuffer, delimiter: Uint8Array, max: number, what: string): Promise<Uint8Array> {
  for (;;) {
    const at = indexOfBytes(buffer.bytes, delimiter);
    if (at !== -1 && at <= max) {
      const found = buffer.take(at);
      buffer.take(delimiter.length);
      return found;
    }
    if (buffer.bytes.length > max + delimiter.length) throw new MultipartError(`${what} is longer than ${max} bytes`);
    if (!(await buffer.more())) throw new MultipartError(`the body ended inside ${what}`);
  }
}

/** A part's data: every byte before the next delimiter, in pieces, the delimiter left in the buffer. */
async function* partData(
  buffer: BodyBuffer,
  delimiter: Uint8Array,
  state: { done: boolean },
): AsyncGenerator<Uint8Array> {
  for (;;) {
    const at = indexOfBytes(buffer.bytes, delimiter);
    if (at !== -1) {
      if (at > 0) yield buffer.take(at).slice();
      state.done = true;
      return;
    }
    // All but what could be the start of a delimiter split across chunks goes on now.
    const safe = buffer.bytes.length - (delimiter.length - 1);
    if (safe > 0) yield buffer.take(safe).slice();
    if (!(await buffer.more())) throw new MultipartError('the body ended inside a part');
  }
}

/** A quoted or bare parameter value of a header. */
function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return trimmed;
}

/** The parameters of a Content-Disposition value; `filename*` (RFC 5987) wins over `filename`. */
function dispositionOf(value: string): { name: string; filename: string | null } {
  const [kind, ...params] = value.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (kind?.trim().toLowerCase() !== 'form-data') throw new MultipartError('a part is not form-data');
  const found = new Map<string, string>();
  for (const param of params) {
    const equals = param.indexOf('=');
    if (equals !== -1) found.set(param.slice(0, equals).trim().toLowerCase(), unquote(param.slice(equals + 1)));
  }
  const name = found.get('name');
  if (name === undefined) throw new MultipartError('a part has no field name');
  const extended = found.get('filename*')?.match(/^utf-8''(.*)$/i)?.[1];
  let filename = found.get('filename') ?? null;
  if (extended !== undefined) {
    try {
      filename = decodeURIComponent(extended);
    } catch {
      throw new MultipartError('a part has a filename* that is not valid percent-encoding');
    }
  }
  return { name, filename };
}

function partHeaders(block: Uint8Array): Omit<MultipartPart, 'body'> {
  const text = new TextDecoder().decode(block);
  let disposition: { name: string; filename: string | null } | null = null;
  let contentType: string | null = null;
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon < 1) throw new MultipartError('a part header has no name');
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === 'content-disposition') disposition = dispositionOf(value);
    else if (header === 'content-type') contentType = value;
  }
  if (!disposition) throw new MultipartError('a part has no Content-Disposition');
  return { ...disposition, contentType };
}

/** After a delimiter: true when it closed the body (`--`), false when a part follows (CRLF). */
async function closes(buffer: BodyBuffer): Promise<boolean> {
  while (buffer.bytes.length < 2 && (await buffer.more()));
  if (buffer.bytes[0] === 45 && buffer.bytes[1] === 45) return true;
  // Transport padding (spaces, tabs) may come before the line's end.
  const line = await readUntil(buffer, CRLF, 64, 'a boundary line');
  if (line.some((byte) => byte !== 32 && byte !== 9)) throw new MultipartError('a boundary line has text after it');
  return false;
}

/**
 * The parts of `body`, one at a time. Throws MultipartError for a malformed or cut-off body; an error
 * of the stream itself (a client gone midway) passes through as it is.
 */
export async function* readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  limits: MultipartReadLimits,
): AsyncGenerator<MultipartPart> {
  const reader = body.getReader();
  // Each delimiter is CRLF "--" boundary; the body's first one has no CRLF before it, so one is added.
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  const buffer = new BodyBuffer(reader, CRLF.slice());
  try {
    await readUntil(buffer, delimiter, limits.maxHeaderBytes, 'the text before the first boundary');
    for (let count = 0; !(await closes(buffer)); count++) {
      if (count >= limits.maxParts) throw new MultipartError(`the body has more than ${limits.maxParts} parts`);
      const startsBare = await startsWithLineEnd(buffer);
      const block = startsBare
        ? new Uint8Array()
        : await readUntil(buffer, HEADER_END, limits.maxHeaderBytes, "a part's headers");
      const state = { done: false };
      const data = partData(buffer, delimiter, state);
      yield { ...partHeaders(block), body: data };
      // What the caller left unread is skipped, a piece at a time (a fresh reader of the same buffer:
      // the caller may have closed the one it was given).
      if (!state.done) for await (const _skipped of partData(buffer, delimiter, state));
      buffer.take(delimiter.length);
    }
  } finally {
    // The epilogue (or the rest of a body refused midway) is not read.
    await reader.cancel().catch(() => {});
  }
}

/** A part with no headers at all: its blank line comes right after the boundary line. */
async function startsWithLineEnd(buffer: BodyBuffer): Promise<boolean> {
  while (buffer.bytes.length < 2 && (await buffer.more()));
  if (buffer.bytes[0] === CR && buffer.bytes[1] === LF) {
    buffer.take(2);
    return true;
  }
  return false;
}
