/**
 * What `read` says of a truncation sidecar that is gone (SIDE-1): the thread's alarm removes each
 * one once its retention has passed, so a model paging through an old output learns that it expired,
 * and that calling the tool again gets it back, instead of a bare "file not found" that suggests a
 * wrong path. A sidecar is recognised by the tool message that named it, whatever spelling of the
 * path the model used: the path is compared in its normalised form.
 */
import { normalizeThreadPath, SIDECAR_DIRECTORY } from '../../engine/files/index.js';
import type { ThreadState } from '../../spec/index.js';

/** The error for a missing path that was a sidecar of this thread, or null. */
export async function expiredSidecarError(state: ThreadState, path: string): Promise<string | null> {
  const normalized = normalizeThreadPath(path);
  if (!normalized.startsWith(`${SIDECAR_DIRECTORY}/`)) return null;
  const { messages } = await state.getMessages({ limit: Infinity, includeSilent: true });
  const source = messages.find((message) => message.envelope?.metadata.output_path === normalized);
  if (!source) return null;
  const when = new Date(source.created_at).toISOString();
  return (
    `${normalized} has expired: the full output of the ${source.name ?? 'tool'} call of ${when} was kept for a ` +
    `limited time (7 days unless the application sets another) and has been removed; call the tool again to get it`
  );
}
