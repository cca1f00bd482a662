/**
 * The inbox of waits: every call waiting for an answer in the threads the key sees (questions,
 * approvals, client tools, secrets, MCP authorizations, subagents), the longest waiting first. A wait
 * is answered with the thread's own answer calls (`client.answers`), naming its `thread_id`.
 */
import { expectOk, type TypedApi } from './http.js';
import type { ListWaitsQuery, WaitPage } from './resources.js';

export interface WaitCalls {
  /**
   * `GET /api/waits`: a page of open waits, oldest first; `kind` one or several kinds, `agent` the
   * thread's agent; `next_cursor` is the `cursor` of the next page. ApiError 400 for a filter it does
   * not take (an unknown kind, a cursor it did not give).
   */
  list(query?: ListWaitsQuery): Promise<WaitPage>;
}

export function waitCalls(api: TypedApi): WaitCalls {
  return {
    list: (query) => expectOk(api.GET('/api/waits', { params: { query } })),
  };
}
