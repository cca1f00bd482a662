/**
 * Deferred children (SUB-6): a child a tool asked for that lacks required variables is not lost. The
 * request is kept in the parent under an id; the model gets a structured `subagent_env_required`
 * error naming it; `GET` / `POST /api/threads/:parent/variables/:requestId` show the request and, with
 * the values, boot the child, whose answer then arrives as a message.
 */
import type { SqliteThreadStore } from './sqlite-store.js';
import type { ApiError, SpawnChildInput } from './thread-api.js';

export interface DeferredChild {
  request_id: string;
  agent: string;
  missing: string[];
  created_at: number;
  input: SpawnChildInput & { reportTo?: string };
}

const key = (requestId: string) => `deferred-child:${requestId}`;

export function deferChild(
  store: SqliteThreadStore,
  input: SpawnChildInput & { reportTo?: string },
  missing: string[],
): DeferredChild {
  const deferred: DeferredChild = {
    request_id: crypto.randomUUID(),
    agent: input.agent,
    missing,
    created_at: Date.now(),
    // The call that asked has ended with the error; the booted child reports as a message.
    input: { ...input, reportTo: undefined, notify: true },
  };
  store.setValue(key(deferred.request_id), deferred);
  return deferred;
}

export function deferredChild(store: SqliteThreadStore, requestId: string): DeferredChild | null {
  return (store.getValue(key(requestId)) as DeferredChild | undefined) ?? null;
}

export function forgetDeferredChild(store: SqliteThreadStore, requestId: string): void {
  store.setValue(key(requestId), undefined);
}

/** What the model reads: the request, the names the human must give, and where. */
export function envRequiredMessage(threadId: string, deferred: DeferredChild): string {
  return JSON.stringify({
    error: 'subagent_env_required',
    request_id: deferred.request_id,
    agent: deferred.agent,
    missing: deferred.missing,
    endpoint: `/api/threads/${threadId}/variables/${deferred.request_id}`,
    message: `The ${deferred.agent} subagent needs values for ${deferred.missing.join(', ')}; ask the user to provide them.`,
  });
}

/** What `GET .../variables/:requestId` answers. */
export interface DeferredChildView {
  request_id: string;
  agent: string;
  missing: string[];
  created_at: number;
}

export function viewOf(deferred: DeferredChild): DeferredChildView {
  const { request_id, agent, missing, created_at } = deferred;
  return { request_id, agent, missing, created_at };
}

export function unknownRequest(requestId: string): ApiError {
  return { status: 404, code: 'request_not_found', message: `no deferred child request ${requestId}` };
}
