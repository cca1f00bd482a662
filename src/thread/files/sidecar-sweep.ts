/**
 * How long truncation sidecars live (SIDE-1). A long tool output's whole text is kept under
 * `/.tool-output/` so the model can page through it (LOCK-6); the thread's alarm removes each one
 * once it is older than the retention (`createRuntime({ limits: { toolOutputRetentionMs } })`, 7 days
 * by default), freeing its room in the quota. Deleting the thread removes the rest with its files.
 *
 * The thread's `meta` keeps when the oldest sidecar it holds was written, so arming the alarm costs
 * one cached read and no listing; the sweep lists `/.tool-output/` only when that time says one is
 * due. The alarm is shared: it is set to the sidecars' due time only when nothing earlier holds it,
 * and the sweep runs at the end of every alarm, so a turn's or a wait's alarm never loses it.
 */
import { SIDECAR_DIRECTORY } from '../../engine/files/index.js';
import type { FileStore } from '../../engine/ports/index.js';
import type { ThreadMeta } from '../storage/index.js';

/** The meta key: when the oldest sidecar still held was written (ms since the epoch), or null. */
const OLDEST_SIDECAR_KEY = 'oldest_sidecar_at';

export function isSidecarPath(path: string): boolean {
  return path.startsWith(`${SIDECAR_DIRECTORY}/`);
}

/** Records a sidecar written at `writtenAt`, so the alarm comes for it. */
export function noteSidecar(meta: ThreadMeta, writtenAt: number): void {
  const oldest = meta.get<number>(OLDEST_SIDECAR_KEY);
  if (oldest === null || writtenAt < oldest) meta.set(OLDEST_SIDECAR_KEY, writtenAt);
}

export interface SidecarDesk {
  ctx: DurableObjectState;
  meta: ThreadMeta;
  /** The thread's counted store, so a removed sidecar frees its room in the quota. */
  files: () => FileStore;
  retentionMs: number;
}

/** Removes the sidecars older than the retention; remembers the oldest one left. */
export async function sweepSidecars(desk: SidecarDesk, now = Date.now()): Promise<void> {
  const oldest = desk.meta.get<number>(OLDEST_SIDECAR_KEY);
  if (oldest === null || oldest + desk.retentionMs > now) return;
  const files = desk.files();
  const expired = (file: { uploadedAt: number }) => file.uploadedAt + desk.retentionMs <= now;
  // A listing holds at most 10,000 files: list again until one shows nothing left to remove (a
  // bounded number of times: whatever is left is seen by the next alarm).
  let held = (await files.list(`${SIDECAR_DIRECTORY}/`, { recursive: true })).files;
  for (let round = 0; round < 10 && held.some(expired); round++) {
    for (const file of held.filter(expired)) await files.delete(file.path);
    held = (await files.list(`${SIDECAR_DIRECTORY}/`, { recursive: true })).files;
  }
  const left = held.length === 0 ? null : Math.min(...held.map((file) => file.uploadedAt));
  desk.meta.set(OLDEST_SIDECAR_KEY, left);
}

/** Keeps the alarm no later than when the oldest sidecar is due. */
export async function armSidecarAlarm(desk: SidecarDesk): Promise<void> {
  const oldest = desk.meta.get<number>(OLDEST_SIDECAR_KEY);
  if (oldest === null) return;
  const due = oldest + desk.retentionMs;
  const alarm = await desk.ctx.storage.getAlarm();
  if (alarm === null || alarm > due) await desk.ctx.storage.setAlarm(due);
}
