/**
 * How a thread starts its children: for a client (RPC), for a tool (`state.spawnChild`, where a
 * child lacking variables is deferred, SUB-6), and when a human completes a deferred request.
 */
import type { SpawnChildOptions } from '../spec/index.js';
import type { AnswerDesk } from './answers.js';
import { createChildThread } from './child-threads.js';
import {
  type DeferredChild,
  type DeferredChildView,
  deferChild,
  deferredChild,
  envRequiredMessage,
  forgetDeferredChild,
  unknownRequest,
  viewOf,
} from './deferred-children.js';
import type { SqliteThreadStore } from './sqlite-store.js';
import { fail, ok, type RpcResult, type SpawnChildInput, type ThreadDetails } from './thread-api.js';
import type { ThreadRecord } from './thread-meta.js';

/** What starting children needs of the thread: the answer desk serves. */
export type SpawnHost = Pick<AnswerDesk, 'env' | 'registry' | 'store' | 'driver'>;

export async function startChild(
  host: SpawnHost,
  record: ThreadRecord,
  input: SpawnChildInput & { reportTo?: string },
): Promise<RpcResult<ThreadDetails>> {
  const parent = { id: record.id, userId: record.userId ?? '', variables: await host.driver.variables() };
  const created = await createChildThread(host.env, host.registry, parent, input);
  if (created.ok) host.store.addChild(created.value.id);
  return created;
}

/** `state.spawnChild`: a child lacking required variables is deferred and the model told how (SUB-6). */
export async function spawnForTool(
  host: SpawnHost,
  record: ThreadRecord,
  options: SpawnChildOptions,
): Promise<{ id: string }> {
  const input = {
    agent: options.agent,
    messages: [{ role: 'user' as const, content: options.message }],
    variables: options.variables ?? {},
    tags: options.tags ?? [],
    reportTo: options.reportTo,
    notify: options.notify ?? false,
    files: options.files ?? [],
  };
  const created = await startChild(host, record, input);
  if (created.ok) return { id: created.value.id };
  const missing = (created.error.details as { missing?: string[] } | undefined)?.missing;
  if (!missing) throw new Error(created.error.message);
  throw new Error(envRequiredMessage(record.id, deferChild(host.store, input, missing)));
}

/** Boots a deferred child with the values a human gave; 400 while required values are still missing. */
export async function bootDeferredChild(
  host: SpawnHost,
  record: ThreadRecord,
  requestId: string,
  values: Record<string, string>,
): Promise<RpcResult<{ child_id: string }>> {
  const deferred: DeferredChild | null = deferredChild(host.store, requestId);
  if (!deferred) return fail(unknownRequest(requestId));
  const input = { ...deferred.input, variables: { ...deferred.input.variables, ...values } };
  const created = await startChild(host, record, input);
  if (!created.ok) return fail(created.error);
  forgetDeferredChild(host.store, requestId);
  return ok({ child_id: created.value.id });
}

export function viewDeferredChild(store: SqliteThreadStore, requestId: string): RpcResult<DeferredChildView> {
  const deferred = deferredChild(store, requestId);
  return deferred ? ok(viewOf(deferred)) : fail(unknownRequest(requestId));
}

/** Runs `act` on every child (SUB-7 stop and delete); one child failing does not keep the others from it. */
export async function forEachChild(
  store: SqliteThreadStore,
  act: (childId: string) => Promise<unknown>,
): Promise<void> {
  const results = await Promise.allSettled(store.children().map(act));
  for (const result of results) {
    if (result.status === 'rejected') console.error(`a child thread could not be reached: ${result.reason}`);
  }
}
