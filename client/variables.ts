/**
 * Deferred subagents: a child thread that could not start for want of variables
 * (`subagent_env_required`) is shown by its request id, and booted once they are given.
 */
import { expectOk, type TypedApi } from './http.js';
import type { BootedChild, DeferredChildView, ProvidedVariables } from './resources.js';

export interface VariableCalls {
  /** `GET .../variables/:requestId`: the agent and the variables it still lacks (404: no such request). */
  get(id: string, requestId: string): Promise<DeferredChildView>;
  /** `POST .../variables/:requestId`: boots the child (400 `missing_variables` while some are missing). */
  provide(id: string, requestId: string, variables: ProvidedVariables): Promise<BootedChild>;
}

export function variableCalls(api: TypedApi): VariableCalls {
  const route = '/api/threads/{id}/variables/{requestId}';
  return {
    get: (id, requestId) => expectOk(api.GET(route, { params: { path: { id, requestId } } })),
    provide: (id, requestId, variables) =>
      expectOk(api.POST(route, { params: { path: { id, requestId } }, body: { variables } })),
  };
}
