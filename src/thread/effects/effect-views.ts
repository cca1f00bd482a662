/**
 * A thread's effects as the API shows and cancels them (`GET /api/threads/:id/effects`,
 * `DELETE /api/threads/:id/effects/:effectId`): what waits or runs, then the newest finished runs.
 */
import { type EffectView, fail, ok, type RpcResult } from '../bindings/index.js';
import type { EffectRow, EffectRows } from '../storage/index.js';

/** How many finished runs the list shows. */
const FINISHED_LISTED = 50;

function viewOf(row: EffectRow): EffectView {
  return {
    id: row.id,
    name: row.name,
    args: row.args,
    status: row.status,
    scheduled_at: row.dueAt,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    error: row.error,
    attempts: row.attempts,
  };
}

export function effectList(rows: EffectRows): { effects: EffectView[] } {
  const listed = [...rows.withStatus('running'), ...rows.withStatus('pending'), ...rows.finished(FINISHED_LISTED)];
  return { effects: listed.map(viewOf) };
}

/** Cancels a waiting effect; an unknown one is 404, one already running or finished 409. */
export function cancelEffect(rows: EffectRows, effectId: string): RpcResult<EffectView> {
  if (rows.cancel(effectId, Date.now())) return ok(viewOf(rows.get(effectId) as EffectRow));
  const row = rows.get(effectId);
  if (!row) return fail({ status: 404, code: 'effect_not_found', message: `no effect ${effectId} in this thread` });
  return fail({
    status: 409,
    code: 'effect_not_pending',
    message: `effect ${effectId} is ${row.status}: only a waiting effect can be cancelled`,
  });
}
