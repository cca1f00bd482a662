/**
 * The file members of a ThreadState (the specification's File System page, THR-7 files): every path
 * passes the running call's access gate (read or write) before storage is touched, and listings and
 * counts leave out what the gate hides. `writeFile` takes the MIME type as its third argument, as the
 * specification does, or in its options, as this runtime always has.
 */
import type { ThreadState, WriteFileOptions } from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { AccessGate } from '../permissions/index.js';

type FileMembers = Pick<
  ThreadState,
  | 'writeFile'
  | 'readFile'
  | 'readFileStream'
  | 'readdirFile'
  | 'statFile'
  | 'unlinkFile'
  | 'mkdirFile'
  | 'rmdirFile'
  | 'getFileStats'
  | 'getFileThumbnail'
  | 'grepFiles'
  | 'findFiles'
>;

// `type/subtype` with RFC 9110 token characters and optional parameters: nothing that could break a header.
const MIME_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;\s*[\w!#$&^.+-]+=("[^"\\\r\n]*"|[\w!#$&^.+-]+))*$/;
const MAX_MIME_TYPE_LENGTH = 200;

/** The options of either form of `writeFile`, or a thrown TypeError; nothing is written then. */
export function writeOptions(third: unknown, fourth: unknown): WriteFileOptions {
  const options = (
    typeof third === 'string' ? { ...(fourth as object), mimeType: third } : (third ?? fourth ?? {})
  ) as WriteFileOptions | null;
  if (typeof options !== 'object' || options === null) throw new TypeError('writeFile: options must be an object');
  if ('thumbnail' in options) {
    throw new TypeError(
      'writeFile: this runtime keeps no thumbnails (getFileThumbnail answers null); write the thumbnail as a file of its own. Nothing was written',
    );
  }
  const mimeType = options.mimeType;
  if (mimeType === undefined || mimeType === '') return { ...options, mimeType: undefined };
  if (typeof mimeType !== 'string' || mimeType.length > MAX_MIME_TYPE_LENGTH || !MIME_TYPE.test(mimeType)) {
    throw new TypeError(
      `writeFile: ${JSON.stringify(String(mimeType).slice(0, 80))} is not a MIME type (type/subtype)`,
    );
  }
  return options;
}

function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
}

/** The file members over the thread's files, each path passing `gate` (the running call's) when there is one. */
export function stateFiles(deps: { files: ThreadFiles; gate?: AccessGate }): FileMembers {
  const { files, gate } = deps;
  const visible = (path: string) => !gate || gate.visible(path);
  const readable = (path: string) => (gate ? gate.read(path) : path);
  const writable = (path: string) => (gate ? gate.write(path) : path);
  return {
    async writeFile(path: string, data: string | ArrayBuffer | Uint8Array, third?: unknown, fourth?: unknown) {
      return files.write(writable(path), data, writeOptions(third, fourth));
    },
    async readFile(path) {
      const bytes = await files.read(readable(path));
      return bytes ? arrayBufferOf(bytes) : null;
    },
    readFileStream: async (path, options) => files.readStream(readable(path), options),
    async readdirFile(path) {
      const listed = (await files.readdir(path)).filter((entry) => visible(entry.path));
      return { entries: listed.map((entry) => ({ ...entry, isDirectory: entry.kind === 'directory' })) };
    },
    statFile: async (path) => files.record(readable(path)),
    unlinkFile: async (path) => files.unlink(writable(path)),
    mkdirFile: async (path) => files.mkdir(writable(path)),
    rmdirFile: async (path) => files.rmdir(writable(path)),
    getFileStats: async () => files.stats(visible),
    async getFileThumbnail(path) {
      // Checked like any read; this runtime makes and keeps no thumbnails (Workers has no image decoder).
      await files.stat(readable(path));
      return null;
    },
    grepFiles: async (pattern, options) => await files.grep(pattern, options, visible),
    findFiles: async (pattern, options) => files.find(pattern, options?.limit, visible),
  } as FileMembers;
}
