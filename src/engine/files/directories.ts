/**
 * Directories of a thread's filesystem. Storage keeps files only, so a directory exists while it
 * holds something (implied by its files' paths) or while it has a marker: the key of its path with a
 * trailing slash, which no file's normalised path can be, written by `mkdirFile` so an empty
 * directory persists. Listings never show a marker as a file. Removing a directory removes its
 * marker, and only when nothing is under it; a directory with no marker goes with its last file.
 */
import type { FileRecord, FileStats } from '../../spec/index.js';
import type { FileStore } from '../ports/index.js';
import { DIRECTORY_MIME_TYPE, directoryRecord } from './file-record.js';
import { directoryPrefix } from './thread-path.js';

/** The store key of a directory's marker. */
export function directoryMarker(path: string): string {
  return `${path}/`;
}

/** Whether a store key is a directory's marker rather than a file (thread paths never end in `/`). */
export function isDirectoryMarker(key: string): boolean {
  return key.endsWith('/');
}

/** `/a`, `/a/b` for `/a/b/c`: the directories above a path, the root left out. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(1, -1);
  return parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
}

/** Whether `path` (normalised) is a directory: the root, a marked one, or one holding something. */
export async function isDirectory(store: FileStore, path: string): Promise<boolean> {
  if (path === '/') return true;
  if (await store.head(directoryMarker(path))) return true;
  const listing = await store.list(directoryPrefix(path), { recursive: false, limit: 1 });
  return listing.files.length > 0 || listing.directories.length > 0;
}

/** Marks `path` (normalised) as a directory; refused where a file stands at it or above it. */
export async function makeDirectory(store: FileStore, path: string): Promise<FileRecord> {
  if (path === '/') return directoryRecord(path);
  for (const where of [...ancestors(path), path]) {
    if (await store.head(where)) {
      throw new Error(`mkdirFile: ${where} is a file, so ${path} cannot be a directory; nothing was made`);
    }
  }
  await store.put(directoryMarker(path), new Uint8Array(0), { mimeType: DIRECTORY_MIME_TYPE });
  return directoryRecord(path);
}

/** Removes the empty directory `path` (normalised), or throws saying why it cannot. */
export async function removeDirectory(store: FileStore, path: string): Promise<void> {
  if (path === '/') throw new Error('rmdirFile: the root directory cannot be removed');
  if (await store.head(path)) throw new Error(`rmdirFile: ${path} is a file; remove it with unlinkFile`);
  const listing = await store.list(directoryPrefix(path), { recursive: false, limit: 1 });
  if (listing.files.length + listing.directories.length > 0) {
    throw new Error(`rmdirFile: ${path} is not empty; nothing was removed`);
  }
  if (!(await store.delete(directoryMarker(path)))) throw new Error(`rmdirFile: no such directory: ${path}`);
}

/**
 * Counts over a recursive listing of the whole thread, of what `visible` admits (what a call's rules
 * hide is not counted); the quota is the store's, if it has one.
 */
export async function fileStats(store: FileStore, visible: (path: string) => boolean = () => true): Promise<FileStats> {
  const listing = await store.list('/', { recursive: true });
  const files = listing.files.filter((file) => visible(file.path));
  const directories = listing.directories.filter(visible);
  const seen = new Set<string>();
  for (const dir of directories) for (const where of [...ancestors(dir), dir]) seen.add(where);
  for (const file of files) for (const where of ancestors(file.path)) seen.add(where);
  return {
    fileCount: files.length,
    directoryCount: seen.size,
    totalSize: files.reduce((sum, file) => sum + file.size, 0),
    quotaBytes: store.quota ?? null,
  };
}
