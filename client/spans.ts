/**
 * What a thread recorded of its turns: each turn's spans (the turn, its model steps, tool calls, MCP
 * requests, hooks, compactions and retries), one trace's or the newest traces', in the order they
 * started. A child thread's turn is in the child's own spans, under the same trace id.
 */
import { expectOk, type TypedApi } from './http.js';
import type { SpanList } from './resources.js';

export interface SpanQuery {
  /** One trace's spans (32 lowercase hex digits), e.g. a parent's trace read in a child thread. */
  traceId?: string;
  /** Without `traceId`: how many of the newest traces (1 to 200; the server's default is 20). */
  traces?: number;
}

export interface SpanCalls {
  /** `GET /api/threads/:id/spans`: the spans in the order they started. */
  list(threadId: string, query?: SpanQuery): Promise<SpanList>;
}

export function spanCalls(api: TypedApi): SpanCalls {
  return {
    list: (threadId, { traceId, traces } = {}) =>
      expectOk(
        api.GET('/api/threads/{id}/spans', {
          params: { path: { id: threadId }, query: { trace_id: traceId, traces } },
        }),
      ),
  };
}
