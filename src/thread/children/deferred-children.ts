/**
 * Deferred children (SUB-6): a child a tool asked for that lacks required variables is not lost. The
 * request is kept in the parent under an id; the model gets a structured `subagent_env_required`
 * error naming it; `GET` / `POST /api/threads/:parent/variables/:requestId` show the request and, with
 * the values, boot the child, whose answer then arrives as a message.
 *
 * The request waits in the parent's key-value store, so the variable values it carries (scoped values
 * copied from the parent, possibly secrets) are kept the way the variables table keeps them (VAR-3):
 * a secret value is sealed with the parent's SecretBox, never stored in plain text.
 */

import type { ApiError, DeferredChildView, SpawnChildInput } from '../bindings/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { SqliteThreadStore } from '../storage/index.js';

type DeferredInput = Omit<SpawnChildInput, 'variables'> & { reportTo?: string };

/** A deferred child's variable values: plain ones as they are, secret ones sealed. */
export interface DeferredVariables {
  plain: Record<string, string>;
  sealed: Record<string, string>;
}

export interface DeferredChild {
  request_id: string;
  agent: string;
  missing: string[];
  created_at: number;
  /** The spawn request, without its variable values. */
  input: DeferredInput & { variables?: Record<string, string> };
  variables?: DeferredVariables;
}

/** Which values are secrets, and the box that seals and opens them. */
export interface DeferredSecrecy {
  isSecret(name: string, value: string): boolean;
  box(): Promise<SecretBox>;
}

const key = (requestId: string) => `deferred-child:${requestId}`;

export async function deferChild(
  store: SqliteThreadStore,
  input: SpawnChildInput & { reportTo?: string },
  missing: string[],
  secrecy: DeferredSecrecy,
): Promise<DeferredChild> {
  const { variables: values = {}, ...rest } = input;
  const variables: DeferredVariables = { plain: {}, sealed: {} };
  for (const [name, value] of Object.entries(values)) {
    if (secrecy.isSecret(name, value)) variables.sealed[name] = await (await secrecy.box()).seal(value);
    else variables.plain[name] = value;
  }
  const deferred: DeferredChild = {
    request_id: crypto.randomUUID(),
    agent: input.agent,
    missing,
    created_at: Date.now(),
    // The call that asked has ended with the error; the booted child reports as a message.
    input: { ...rest, reportTo: undefined, notify: true },
    variables,
  };
  store.setValue(key(deferred.request_id), deferred);
  return deferred;
}

/** The values the deferred request carries, secrets opened. */
export async function deferredValues(
  deferred: DeferredChild,
  secrecy: DeferredSecrecy,
): Promise<Record<string, string>> {
  // A request kept before values were split keeps them on its input.
  const { plain, sealed } = deferred.variables ?? { plain: deferred.input.variables ?? {}, sealed: {} };
  const values = { ...plain };
  for (const [name, value] of Object.entries(sealed)) values[name] = await (await secrecy.box()).open(value);
  return values;
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

export function viewOf(deferred: DeferredChild): DeferredChildView {
  const { request_id, agent, missing, created_at } = deferred;
  return { request_id, agent, missing, created_at };
}

export function unknownRequest(requestId: string): ApiError {
  return { status: 404, code: 'request_not_found', message: `no deferred child request ${requestId}` };
}
