/**
 * How a thread starts its children: for a client (RPC), for a tool (`state.spawnChild`, where a
 * child lacking variables is deferred, SUB-6), and when a human completes a deferred request.
 */

import { rulesForChild } from '../../engine/permissions/index.js';
import type { Registry } from '../../engine/registry/index.js';
import { SUBAGENT_INSTANCES_KEY, subagentInstances } from '../../engine/subagents/index.js';
import { ATTR, activeSpan } from '../../engine/tracing/index.js';
import type { SpawnChildOptions } from '../../spec/index.js';
import {
  type DeferredChildView,
  fail,
  ok,
  type RpcResult,
  type RuntimeEnv,
  type SpawnChildInput,
  type ThreadDetails,
  threadStub,
} from '../bindings/index.js';
import { SecretBox, SecretsKeyMissing, type ThreadVariables } from '../secrets/index.js';
import { ownershipOf, type SqliteThreadStore, type ThreadRecord } from '../storage/index.js';
import { createChildThread, SCOPED_NAMES_KEY } from './child-threads.js';
import {
  type DeferredChild,
  type DeferredSecrecy,
  deferChild,
  deferredChild,
  deferredValues,
  envRequiredMessage,
  forgetDeferredChild,
  unknownRequest,
  viewOf,
} from './deferred-children.js';

/** What starting children needs of the thread. */
export interface SpawnHost {
  env: RuntimeEnv;
  registry: Registry;
  store: SqliteThreadStore;
  variables: ThreadVariables;
}

/**
 * VAR-3: a deferred child's value is a secret when the parent holds that name as a secret, the child
 * declares it secret, or it contains one of the parent's secrets; it is sealed with the parent's box.
 */
async function deferredSecrecy(host: SpawnHost, record: ThreadRecord, agentName: string): Promise<DeferredSecrecy> {
  const parent = await host.variables.open();
  const agent = host.registry.agent(agentName);
  const declared = agent ? host.registry.variablesFor(agent) : [];
  const childSecrets = new Set(declared.filter((v) => v.type === 'secret').map((v) => v.name));
  let box: Promise<SecretBox> | null = null;
  return {
    isSecret: (name, value) =>
      parent.secretNames.has(name) || childSecrets.has(name) || parent.scrubber.text(value) !== value,
    box: () => {
      const masterKey = host.env.SECRETS_KEY;
      if (!masterKey) return Promise.reject(new SecretsKeyMissing());
      box ??= SecretBox.forThread(masterKey, record.id);
      return box;
    },
  };
}

export async function startChild(
  host: SpawnHost,
  record: ThreadRecord,
  input: SpawnChildInput & { reportTo?: string },
): Promise<RpcResult<ThreadDetails>> {
  const refused = input.instance ? instanceRefusal(host.store, input.agent, input.instance) : null;
  if (refused) return fail({ status: 409, code: 'instance_refused', message: refused });
  const parent = {
    id: record.id,
    ...ownershipOf(record),
    userId: record.userId ?? '',
    variables: await host.variables.open(),
    rules: rulesForChild(host.store, host.registry.agent(record.agentId)),
    scopedNames: new Set((host.store.getValue(SCOPED_NAMES_KEY) as string[] | undefined) ?? []),
  };
  const created = await createChildThread(host.env, host.registry, parent, input);
  if (!created.ok) return created;
  const agent = host.registry.agent(input.agent);
  host.store.addChild(created.value.id, {
    name: input.agent,
    ...(agent?.title ? { title: agent.title } : {}),
    description: agent?.toolDescription ?? '',
    resumable: input.instance !== undefined,
    blocking: input.reportTo !== undefined,
    ...(input.instance ? { threadName: input.instance.name } : {}),
  });
  if (input.instance) {
    const instances = subagentInstances(host.store);
    instances[input.instance.name] = { id: created.value.id, agent: input.agent, receives: input.instance.receives };
    host.store.setValue(SUBAGENT_INSTANCES_KEY, instances);
  }
  return created;
}

/** SUB-4: why a resumable instance may not be created: its name is taken, or the agent has its maximum. */
function instanceRefusal(
  store: SqliteThreadStore,
  agent: string,
  instance: NonNullable<SpawnChildInput['instance']>,
): string | null {
  const instances = subagentInstances(store);
  if (instances[instance.name]) return `a subagent named "${instance.name}" exists already in this thread`;
  const count = Object.values(instances).filter((existing) => existing.agent === agent).length;
  if (instance.maxInstances !== undefined && count >= instance.maxInstances) {
    return `${agent} has reached its limit of ${instance.maxInstances} instance${instance.maxInstances === 1 ? '' : 's'} in this thread`;
  }
  return null;
}

/** `state.messageChild` (SUB-4): delivers a message to a resumable instance, by name or thread id. */
export async function messageInstance(
  host: SpawnHost,
  record: ThreadRecord,
  nameOrId: string,
  content: string,
): Promise<{ id: string }> {
  const instances = subagentInstances(host.store);
  const instance = instances[nameOrId] ?? Object.values(instances).find((candidate) => candidate.id === nameOrId);
  if (!instance) {
    const names = Object.keys(instances);
    throw new Error(
      `no subagent instance named "${nameOrId}"${names.length ? `; instances: ${names.join(', ')}` : ''}`,
    );
  }
  const stub = threadStub(host.env, instance.id);
  // TRACE-3: the instance's turn is part of the trace of the call that messaged it.
  const traceparent = activeSpan().set(ATTR.childThread, instance.id).traceparent ?? undefined;
  // RPC types lose the failure branch of the union; the value crossing is an RpcResult all the same.
  const sent = (await stub.messageFromParent(
    record.id,
    content,
    instance.receives,
    traceparent,
  )) as unknown as RpcResult<unknown>;
  if (!sent.ok) throw new Error(sent.error.message);
  return { id: instance.id };
}

/** `state.spawnChild`: a child lacking required variables is deferred and the model told how (SUB-6). */
export async function spawnForTool(
  host: SpawnHost,
  record: ThreadRecord,
  options: SpawnChildOptions,
): Promise<{ id: string }> {
  const toSide = options.instance?.receives === 'b' ? { metadata: { to_side: 'b' } } : {};
  const input = {
    agent: options.agent,
    messages: [{ role: 'user' as const, content: options.message, ...toSide }],
    variables: options.variables ?? {},
    tags: options.tags ?? [],
    reportTo: options.reportTo,
    notify: options.notify ?? false,
    files: options.files ?? [],
    ...(options.instance ? { instance: options.instance } : {}),
  };
  const created = await startChild(host, record, input);
  if (created.ok) return { id: created.value.id };
  const missing = (created.error.details as { missing?: string[] } | undefined)?.missing;
  if (!missing) throw new Error(created.error.message);
  const deferred = await deferChild(host.store, input, missing, await deferredSecrecy(host, record, input.agent));
  throw new Error(envRequiredMessage(record.id, deferred));
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
  const kept = await deferredValues(deferred, await deferredSecrecy(host, record, deferred.agent));
  const input = { ...deferred.input, variables: { ...kept, ...values } };
  const created = await startChild(host, record, input);
  if (!created.ok) return fail(created.error);
  forgetDeferredChild(host.store, requestId);
  return ok({ child_id: created.value.id });
}

export function viewDeferredChild(store: SqliteThreadStore, requestId: string): RpcResult<DeferredChildView> {
  const deferred = deferredChild(store, requestId);
  return deferred ? ok(viewOf(deferred)) : fail(unknownRequest(requestId));
}

/**
 * Runs `act` on every child (SUB-7 stop and delete); one child failing does not keep the others from
 * it. Failures go to the thread's scrubbed log (EXE-8).
 */
export async function forEachChild(
  host: Pick<SpawnHost, 'store' | 'variables'>,
  act: (childId: string) => Promise<unknown>,
): Promise<void> {
  const results = await Promise.allSettled(host.store.children().map(act));
  for (const result of results) {
    if (result.status === 'rejected') host.variables.logError(`a child thread could not be reached: ${result.reason}`);
  }
}
