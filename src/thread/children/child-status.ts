/**
 * A child's status in its parent's registry (`state.children[i].status`): the child tells its parent
 * when a turn starts and ends, when it sets a status of its own (`state.setStatus`) and when it is
 * terminated. Reports go one at a time, in order, so the parent never shows an older status after a
 * newer one; a parent that cannot be reached misses that report (the next one corrects it), and the
 * failure goes to the child's scrubbed log.
 */
import { type RuntimeEnv, threadStub } from '../bindings/index.js';
import type { ThreadRecord } from '../storage/index.js';

/** Each object's reports in flight, chained: one chain per Durable Object, whoever reports. */
const chains = new WeakMap<DurableObjectState, Promise<unknown>>();

/**
 * Sends `status` to the parent of `record` after the reports this object sent before it; resolves
 * once sent (or failed). A thread without a parent sends nothing. These are the object's own
 * turns' statuses: they never replace, at a turn's end, a status the child set itself.
 */
export function reportChildStatus(
  ctx: DurableObjectState,
  env: RuntimeEnv,
  record: ThreadRecord | null,
  status: string,
  logError: (line: string) => void,
): Promise<void> {
  const parentId = record?.parentId;
  if (!record || !parentId) return Promise.resolve();
  const sent = (chains.get(ctx) ?? Promise.resolve()).then(async () => {
    try {
      await threadStub(env, parentId).childStatus(record.id, status, true);
    } catch (error) {
      logError(`the parent thread could not be told this child's status: ${(error as Error).message}`);
    }
  });
  chains.set(ctx, sent);
  ctx.waitUntil(sent);
  return sent;
}
