/**
 * A thread's filesystem as tools see it (THR-7 files, ATT-1, ATT-3): confined paths over a FileStore,
 * plus the searches (grep, glob) built on listing and reading.
 *
 * Every file the runtime or a tool writes passes through `write` (state.writeFile, the bash tool,
 * attachments, truncation sidecars): text content is scrubbed of the thread's secrets before it is
 * stored (EXE-8). What cannot be scrubbed is refused, and nothing is written: a name holding a
 * secret (it would be listed as it is), and bytes holding one where the text scrubber cannot
 * replace it (bytes that are not UTF-8 text, UTF-16, Latin-1: secret-bytes.ts). Client uploads do
 * not come here.
 */
import type {
  AttachmentRef,
  DirectoryEntry,
  FileChunk,
  FileRecord,
  FileStat,
  FileStats,
  GrepMatch,
  ReadFileStreamOptions,
  WriteFileOptions,
} from '../../spec/index.js';
import { compileGlob, compileLinearRegex } from '../patterns/index.js';
import type { FileStore } from '../ports/index.js';
import { NO_SECRETS, type SecretScrubber } from '../secrets/index.js';
import { fileStats, isDirectory, makeDirectory, removeDirectory } from './directories.js';
import { directoryRecord, fileRecord, storableMetadata } from './file-record.js';
import { fileChunks } from './file-stream.js';
import { mimeTypeFor } from './mime.js';
import { canonicalText } from './name-characters.js';
import { baseName, directoryPrefix, normalizeThreadPath } from './thread-path.js';

/** Files larger than this are skipped by grep: searching them would stall the thread. */
const GREP_MAX_FILE_BYTES = 5 * 1024 * 1024;
const DEFAULT_GREP_LIMIT = 200;
const DEFAULT_FIND_LIMIT = 1000;

const encoder = new TextEncoder();

/** How much of a file is sniffed to tell text from binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/**
 * Whether a file is binary rather than UTF-8 text: a NUL byte, or bytes that are not UTF-8, in its
 * first 8 KB. A character cut by the 8 KB boundary is not held against it.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(head, {
      stream: head.byteLength < bytes.byteLength,
    });
    return false;
  } catch {
    return true;
  }
}

function toBytes(data: string | ArrayBuffer | Uint8Array): Uint8Array {
  if (typeof data === 'string') return encoder.encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

/** A write refused because what it would store holds a secret the scrubber cannot replace (EXE-8). */
export class SecretInFile extends Error {
  constructor(where: 'name' | 'bytes') {
    super(
      where === 'name'
        ? 'the file name holds a secret value; a secret never names a file, and nothing was written'
        : 'the content holds a secret value in a form that cannot be scrubbed (bytes that are not UTF-8 text, UTF-16 or Latin-1); nothing was written',
    );
    this.name = 'SecretInFile';
  }
}

/** The text of UTF-8 bytes, or null when they are not UTF-8. */
function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The content with secrets replaced when it is UTF-8 text (EXE-8); throws SecretInFile when the
 * bytes still hold one in a form text scrubbing cannot reach.
 */
function scrubbedBytes(data: string | ArrayBuffer | Uint8Array, scrubber: SecretScrubber): Uint8Array {
  if (!scrubber.active) return toBytes(data);
  let bytes: Uint8Array;
  if (typeof data === 'string') bytes = encoder.encode(scrubber.text(data));
  else {
    bytes = toBytes(data);
    const text = utf8Text(bytes);
    const clean = text === null ? text : scrubber.text(text);
    if (clean !== null && clean !== text) bytes = encoder.encode(clean);
  }
  if (scrubber.inBytes(bytes)) throw new SecretInFile('bytes');
  return bytes;
}

export function attachmentRefFor(stat: FileStat, id: string): AttachmentRef {
  return {
    id,
    type: 'file',
    path: stat.path,
    name: stat.name,
    mimeType: stat.mimeType,
    size: stat.size,
    ...(stat.width !== undefined ? { width: stat.width } : {}),
    ...(stat.height !== undefined ? { height: stat.height } : {}),
  };
}

export class ThreadFiles {
  constructor(
    private readonly store: FileStore,
    private readonly scrubber: SecretScrubber = NO_SECRETS,
  ) {}

  /** The stored file's record, with an attachment's fields so it can be attached as it is. */
  async write(
    path: string,
    data: string | ArrayBuffer | Uint8Array,
    options: WriteFileOptions = {},
  ): Promise<FileRecord & AttachmentRef> {
    const normalized = normalizeThreadPath(path);
    if (normalized === '/') throw new Error('cannot write to the root directory');
    if (this.scrubber.text(normalized) !== normalized) throw new SecretInFile('name');
    const metadata = storableMetadata(options.metadata, this.scrubber);
    const stat = await this.store.put(normalized, scrubbedBytes(data, this.scrubber), {
      mimeType: options.mimeType ?? mimeTypeFor(normalized),
      width: options.width,
      height: options.height,
      ...(metadata ? { metadata } : {}),
    });
    return { ...attachmentRefFor(stat, crypto.randomUUID()), ...fileRecord(stat) };
  }

  async read(path: string): Promise<Uint8Array | null> {
    const file = await this.store.get(normalizeThreadPath(path));
    if (!file) return null;
    return new Uint8Array(await new Response(file.body).arrayBuffer());
  }

  async stat(path: string): Promise<FileStat | null> {
    return this.store.head(normalizeThreadPath(path));
  }

  /** The record of the file or directory at `path`, or null when there is neither. */
  async record(path: string): Promise<FileRecord | null> {
    const normalized = normalizeThreadPath(path);
    const stat = normalized === '/' ? null : await this.store.head(normalized);
    if (stat) return fileRecord(stat);
    return (await isDirectory(this.store, normalized)) ? directoryRecord(normalized) : null;
  }

  async readStream(path: string, options?: ReadFileStreamOptions): Promise<AsyncIterable<FileChunk> | null> {
    return fileChunks(this.store, normalizeThreadPath(path), options);
  }

  async mkdir(path: string): Promise<FileRecord> {
    return makeDirectory(this.store, normalizeThreadPath(path));
  }

  async rmdir(path: string): Promise<void> {
    await removeDirectory(this.store, normalizeThreadPath(path));
  }

  /** Counts of what `visible` admits, and the quota. */
  async stats(visible?: (path: string) => boolean): Promise<FileStats> {
    return fileStats(this.store, visible);
  }

  async unlink(path: string): Promise<boolean> {
    return this.store.delete(normalizeThreadPath(path));
  }

  async readdir(path: string): Promise<DirectoryEntry[]> {
    const prefix = directoryPrefix(normalizeThreadPath(path));
    const listing = await this.store.list(prefix, { recursive: false });
    const entries: DirectoryEntry[] = [
      ...listing.directories.map((dir) => ({ name: baseName(dir), path: dir, kind: 'directory' as const })),
      ...listing.files.map((file) => ({ name: file.name, path: file.path, kind: 'file' as const, size: file.size })),
    ];
    return entries.sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * Paths matching the glob, in linear time (engine/patterns: a model may write it); `visible` leaves
   * out what the caller may not see (access-gate.ts). Throws PatternRefused for `!(...)`.
   */
  async find(pattern: string, limit = DEFAULT_FIND_LIMIT, visible: (path: string) => boolean = () => true) {
    const isMatch = compileGlob(canonicalText(pattern).replace(/^\/+/, ''));
    const { files } = await this.store.list('/', { recursive: true });
    return files
      .map((file) => file.path)
      .filter((path) => isMatch(path.slice(1)) && visible(path))
      .sort()
      .slice(0, limit);
  }

  /**
   * Matching lines, the pattern run in linear time (engine/patterns); files `visible` refuses are
   * never read. Throws PatternRefused for a pattern with no linear-time form.
   */
  async grep(
    pattern: string,
    options: { path?: string; limit?: number } = {},
    visible: (path: string) => boolean = () => true,
  ): Promise<GrepMatch[]> {
    const regex = compileLinearRegex(pattern);
    const limit = options.limit ?? DEFAULT_GREP_LIMIT;
    const root = normalizeThreadPath(options.path ?? '/');
    const single = root === '/' ? null : await this.store.head(root);
    const files = single ? [single] : (await this.store.list(directoryPrefix(root), { recursive: true })).files;
    files.sort((a, b) => a.path.localeCompare(b.path));
    const matches: GrepMatch[] = [];
    const decoder = new TextDecoder();
    for (const file of files) {
      if (file.size > GREP_MAX_FILE_BYTES || !visible(file.path)) continue;
      const bytes = await this.read(file.path);
      if (!bytes || bytes.includes(0)) continue; // binary
      const lines = decoder.decode(bytes).split(/\r?\n/);
      for (let index = 0; index < lines.length; index++) {
        if (!regex.test(lines[index] as string)) continue;
        matches.push({ path: file.path, line: index + 1, text: lines[index] as string });
        if (matches.length >= limit) return matches;
      }
    }
    return matches;
  }
}
