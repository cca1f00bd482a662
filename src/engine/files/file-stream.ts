/**
 * `readFileStream`: a file in fixed-size chunks read from storage as the caller consumes them, so a
 * file larger than memory can be read. At most one chunk and one piece of the storage stream are
 * held at a time; stopping the iteration (or aborting its signal) cancels the read from storage.
 */
import type { FileChunk, ReadFileStreamOptions } from '../../spec/index.js';
import type { FileStore } from '../ports/index.js';

export const DEFAULT_CHUNK_BYTES = 64 * 1024;
const MIN_CHUNK_BYTES = 1024;
const MAX_CHUNK_BYTES = 1024 * 1024;

function chunkBytes(requested: number | undefined): number {
  if (requested === undefined) return DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(requested) || requested < MIN_CHUNK_BYTES || requested > MAX_CHUNK_BYTES) {
    throw new RangeError(
      `readFileStream: chunkSize must be a whole number of bytes from ${MIN_CHUNK_BYTES} to ${MAX_CHUNK_BYTES}`,
    );
  }
  return requested;
}

/** Cuts a byte stream into chunks of `size` bytes; the one held back tells which is last. */
async function* chunksOf(body: ReadableStream<Uint8Array>, size: number, total: number, signal?: AbortSignal) {
  const reader = body.getReader();
  let pending: Uint8Array | null = null;
  let buffer = new Uint8Array(size);
  let filled = 0;
  let index = 0;
  let done = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const piece = await reader.read();
      if (piece.done) break;
      let offset = 0;
      while (offset < piece.value.byteLength) {
        const taken = Math.min(size - filled, piece.value.byteLength - offset);
        buffer.set(piece.value.subarray(offset, offset + taken), filled);
        filled += taken;
        offset += taken;
        if (filled < size) continue;
        if (pending) yield { data: pending, index: index++, totalChunks: total, isLast: false };
        pending = buffer;
        buffer = new Uint8Array(size);
        filled = 0;
      }
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
  const last = filled > 0 || !pending ? buffer.slice(0, filled) : null;
  if (pending) yield { data: pending, index: index++, totalChunks: total, isLast: last === null };
  if (last) yield { data: last, index, totalChunks: total, isLast: true };
}

/**
 * The chunks of the file at `path` (normalised), or null when there is none. Each iteration opens
 * the file anew; one whose file was removed meanwhile throws.
 */
export async function fileChunks(
  store: FileStore,
  path: string,
  options: ReadFileStreamOptions = {},
): Promise<AsyncIterable<FileChunk> | null> {
  const size = chunkBytes(options.chunkSize);
  if (!(await store.head(path))) return null;
  return {
    async *[Symbol.asyncIterator]() {
      const file = await store.get(path);
      if (!file) throw new Error(`readFileStream: ${path} was removed while it was being read`);
      const total = Math.max(1, Math.ceil(file.stat.size / size));
      yield* chunksOf(file.body as ReadableStream<Uint8Array>, size, total, options.signal);
    },
  };
}
