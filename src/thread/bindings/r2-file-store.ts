/**
 * The thread filesystem on R2 (ATT-1): one object per file under `threads/<thread id>/`, with the
 * mime type as the object's content type and image dimensions as custom metadata.
 */

import { baseName, isDirectoryMarker } from '../../engine/files/index.js';
import type { FileListing, FileStore, ListOptions, StoredFileMeta } from '../../engine/ports/index.js';
import type { FileStat } from '../../spec/index.js';

/** Recursive listings stop here: a thread with more files should be searched by prefix. */
const MAX_LISTED = 10_000;

/** The metadata a writer kept with a file (file-record.ts), or undefined for none or unreadable. */
function storedMetadata(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function threadPrefix(threadId: string): string {
  return `threads/${threadId}`;
}

export class R2FileStore implements FileStore {
  private readonly prefix: string;

  constructor(
    private readonly bucket: R2Bucket,
    threadId: string,
  ) {
    this.prefix = threadPrefix(threadId);
  }

  private stat(object: R2Object): FileStat {
    const path = object.key.slice(this.prefix.length);
    const width = object.customMetadata?.width;
    const height = object.customMetadata?.height;
    const metadata = storedMetadata(object.customMetadata?.metadata);
    return {
      path,
      name: baseName(path),
      size: object.size,
      mimeType: object.httpMetadata?.contentType ?? 'application/octet-stream',
      uploadedAt: object.uploaded.getTime(),
      ...(width ? { width: Number(width) } : {}),
      ...(height ? { height: Number(height) } : {}),
      ...(metadata ? { metadata } : {}),
    };
  }

  private options(meta: StoredFileMeta) {
    const customMetadata: Record<string, string> = {};
    if (meta.width !== undefined) customMetadata.width = String(meta.width);
    if (meta.height !== undefined) customMetadata.height = String(meta.height);
    if (meta.metadata !== undefined) customMetadata.metadata = JSON.stringify(meta.metadata);
    return { httpMetadata: { contentType: meta.mimeType }, customMetadata };
  }

  async put(path: string, data: Uint8Array | ReadableStream, meta: StoredFileMeta): Promise<FileStat> {
    const object = await this.bucket.put(this.prefix + path, data, this.options(meta));
    if (!object) throw new Error(`could not store ${path}`);
    return this.stat(object);
  }

  /**
   * Stores `path` from parts sent one at a time (R2's multipart upload: each part at least 5 MiB, all
   * but the last of one size), for a file whose size is known only at its end. Nothing is visible at
   * `path` until every part is sent; a failure aborts the upload, leaving nothing.
   */
  async putParts(path: string, parts: AsyncIterable<Uint8Array>, meta: StoredFileMeta): Promise<FileStat> {
    const upload = await this.bucket.createMultipartUpload(this.prefix + path, this.options(meta));
    try {
      const sent: R2UploadedPart[] = [];
      for await (const part of parts) sent.push(await upload.uploadPart(sent.length + 1, part));
      return this.stat(await upload.complete(sent));
    } catch (error) {
      await upload.abort().catch(() => {});
      throw error;
    }
  }

  async get(path: string) {
    const object = await this.bucket.get(this.prefix + path);
    return object ? { stat: this.stat(object), body: object.body } : null;
  }

  async head(path: string) {
    const object = await this.bucket.head(this.prefix + path);
    return object ? this.stat(object) : null;
  }

  async list(prefix: string, options: ListOptions): Promise<FileListing> {
    const files: FileStat[] = [];
    const directories: string[] = [];
    let cursor: string | undefined;
    do {
      // `include` is honoured by R2 but missing from some workers-types releases.
      const listOptions: R2ListOptions & { include: string[] } = {
        prefix: this.prefix + prefix,
        cursor,
        include: ['httpMetadata', 'customMetadata'],
        ...(options.recursive ? {} : { delimiter: '/' }),
        ...(options.limit !== undefined ? { limit: Math.min(Math.max(options.limit, 1), 1000) } : {}),
      };
      const page = await this.bucket.list(listOptions);
      for (const object of page.objects) {
        // A directory's marker: listed as the directory it keeps (recursive), or not at all (its own listing).
        if (isDirectoryMarker(object.key)) {
          if (options.recursive) directories.push(object.key.slice(this.prefix.length, -1));
          continue;
        }
        files.push(this.stat(object));
      }
      for (const dir of page.delimitedPrefixes) directories.push(dir.slice(this.prefix.length).replace(/\/$/, ''));
      cursor = page.truncated ? page.cursor : undefined;
      if (options.limit !== undefined && files.length + directories.length >= options.limit) break;
    } while (cursor && files.length < MAX_LISTED);
    return { files, directories };
  }

  async delete(path: string): Promise<boolean> {
    const existing = await this.bucket.head(this.prefix + path);
    if (!existing) return false;
    await this.bucket.delete(this.prefix + path);
    return true;
  }

  /** Removes every file of the thread. */
  deleteAll(): Promise<void> {
    return deleteUnder(this.bucket, `${this.prefix}/`);
  }
}

/** Removes every object whose key starts with `prefix`, a listed page (up to 1,000 keys) at a time. */
export async function deleteUnder(bucket: R2Bucket, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}
