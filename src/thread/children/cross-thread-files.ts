/**
 * Files crossing threads (ATT-4): always by copy, into the receiving thread's own `/attachments/`,
 * so every reference a thread holds is valid in its own filesystem. Parent → child files land in
 * `/attachments/from-parent/`; child → parent files in `/attachments/from-<child id prefix>/`.
 *
 * The copies are counted against the receiving thread's storage quota (ATT-6), all of them before
 * the first is made: a file handed over many times counts each time.
 */
import { attachmentRefFor, baseName, normalizeThreadPath } from '../../engine/files/index.js';
import type { FileStore } from '../../engine/ports/index.js';
import type { AttachmentRef, FileStat } from '../../spec/index.js';
import { fail, ok, R2FileStore, type RpcResult } from '../bindings/index.js';
import { type CountedFile, type CountedFileStore, StorageQuotaExceeded } from '../files/index.js';

/** Where each file lands, with its size: what the receiving thread checks against its quota. */
async function plan(
  source: R2FileStore,
  paths: readonly string[],
  folder: string,
): Promise<{ from: FileStat; to: string }[]> {
  const planned: { from: FileStat; to: string }[] = [];
  for (const [index, path] of paths.entries()) {
    const from = await source.head(normalizeThreadPath(path));
    if (!from) throw new Error(`no file ${normalizeThreadPath(path)} to hand over`);
    // A numeric prefix keeps two files of the same name apart.
    planned.push({ from, to: `${folder}/${paths.length > 1 ? `${index + 1}-` : ''}${baseName(from.path)}` });
  }
  return planned;
}

/**
 * Copies files of `fromThread` into a folder of the thread `into` stores, keeping their names and
 * streaming each; refuses a missing file. `fits` sees every copy before the first is made, and
 * throws to refuse them all.
 */
export async function copyIntoThread(
  bucket: R2Bucket,
  fromThread: string,
  paths: readonly string[],
  into: FileStore,
  folder: string,
  fits: (files: CountedFile[]) => Promise<void> | void,
): Promise<AttachmentRef[]> {
  const source = new R2FileStore(bucket, fromThread);
  const planned = await plan(source, paths, folder);
  await fits(planned.map(({ from, to }) => ({ path: normalizeThreadPath(to), size: from.size })));
  const copies: AttachmentRef[] = [];
  for (const { from, to } of planned) {
    const file = await source.get(from.path);
    if (!file) throw new Error(`no file ${from.path} to hand over`);
    const sized = file.body.pipeThrough(new FixedLengthStream(file.stat.size));
    const copied = await into.put(normalizeThreadPath(to), sized, {
      mimeType: file.stat.mimeType,
      width: file.stat.width,
      height: file.stat.height,
      size: file.stat.size,
    });
    copies.push(attachmentRefFor(copied, crypto.randomUUID()));
  }
  return copies;
}

/**
 * A child's produced files, copied by its parent into its own `/attachments/from-<child id
 * prefix>/` under its quota. Like a child's report, it comes over RPC, which only the runtime's
 * own threads reach; a child may report before its parent has recorded it, so no list is checked.
 */
export async function receiveChildFiles(
  bucket: R2Bucket,
  childId: string,
  paths: readonly string[],
  into: CountedFileStore,
): Promise<RpcResult<AttachmentRef[]>> {
  const folder = `/attachments/from-${childId.slice(0, 8)}`;
  try {
    return ok(await copyIntoThread(bucket, childId, paths, into, folder, (files) => into.checkFits(files)));
  } catch (error) {
    if (!(error instanceof StorageQuotaExceeded)) throw error;
    return fail({ status: 413, code: 'storage_quota_exceeded', message: error.message });
  }
}
