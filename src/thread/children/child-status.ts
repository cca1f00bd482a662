/**
 * A child's status in its parent's registry (`state.children[i].status`): the child tells its parent
 * when a turn starts and ends, when it sets a status of its own (`state.setStatus`) and when it is
 * terminated. Reports go one at a time, in order, so the parent never shows an older status after a
 * newer one; a parent that cannot be reached misses that report (the next one corrects it), and the
 * failure goes to the child's scrubbed log.
 */
import { type ChildDelivery, type RuntimeEnv, threadStub } from '../bindings/index.js';
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

/**
 * The child's own status (`state.setStatus`), sent to the parent in the same order as the turn's
 * reports: sent beside them, it could overtake the `running` report of the turn that set it, which
 * then replaced it. Resolves with the parent's answer; rejects when the parent cannot be reached.
 */
export function sendOwnStatus(
  ctx: DurableObjectState,
  env: RuntimeEnv,
  record: ThreadRecord & { parentId: string },
  status: string,
): Promise<ChildDelivery> {
  const sent = (chains.get(ctx) ?? Promise.resolve()).then(() =>
    threadStub(env, record.parentId).childStatus(record.id, status),
  );
  chains.set(
    ctx,
    sent.catch(() => {}),
  );
  return sent as Promise<ChildDelivery>;
}
