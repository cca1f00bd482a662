/**
 * A thread's scheduled effects: those waiting or running and the newest finished, and cancelling one
 * that has not started.
 */
import { expectOk, type TypedApi } from './http.js';
import type { ThreadEffect, ThreadEffectList } from './resources.js';

export interface EffectCalls {
  /** `GET /api/threads/:id/effects`: waiting or running effects, then the newest 50 finished. */
  list(threadId: string): Promise<ThreadEffectList>;
  /** `DELETE /api/threads/:id/effects/:effectId`: cancels a waiting effect (ApiError 409 once it runs or ran). */
  cancel(threadId: string, effectId: string): Promise<ThreadEffect>;
}

export function effectCalls(api: TypedApi): EffectCalls {
  return {
    list: (threadId) => expectOk(api.GET('/api/threads/{id}/effects', { params: { path: { id: threadId } } })),
    cancel: (threadId, effectId) =>
      expectOk(api.DELETE('/api/threads/{id}/effects/{effectId}', { params: { path: { id: threadId, effectId } } })),
  };
}
