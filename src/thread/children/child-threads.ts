/**
 * Child threads (SUB-2, SUB-7): each is a Thread Durable Object of its own, created by its parent
 * through a stub, inheriting the parent's variables except those it declares scoped (VAR-4) unless
 * the parent holds them as scoped values of its own subtree (SCOPE-1). How a child reports back is in
 * parent-reports.ts.
 */
import type { Registry } from '../../engine/registry/index.js';
import { ATTR, activeSpan } from '../../engine/tracing/index.js';
import type { AttachmentRef, PermissionRule } from '../../spec/index.js';
import { inheritVariableValues, missingVariables } from '../../spec/internal.js';
import type { RuntimeEnv } from '../bindings/index.js';
import {
  fail,
  type InitialMessage,
  R2FileStore,
  type RpcResult,
  type SpawnChildInput,
  type ThreadDetails,
  threadStub,
} from '../bindings/index.js';
import { StorageQuotaExceeded } from '../files/index.js';
import type { LoadedVariables } from '../secrets/index.js';
import type { ThreadRecord } from '../storage/index.js';
import { copyIntoThread } from './cross-thread-files.js';

export interface ChildParent {
  id: string;
  /** The parent's owner facts: a child belongs to the same tenant and owner and is as shared (IDN-1). */
  tenant: string;
  userId: string;
  shared: boolean;
  variables: LoadedVariables;
  /** The rules the child inherits: never freer than its parent (thread-rules.ts). */
  rules: PermissionRule[];
  /** The names whose values the parent holds as scoped: they pass to every descendant (SCOPE-1). */
  scopedNames: ReadonlySet<string>;
}

/** Where a thread keeps the names of the values it holds as scoped (SCOPE-1), in its key-value store. */
export const SCOPED_NAMES_KEY = 'scoped_variable_names';

/** Creates the child thread; the caller records it among its children when this succeeds. */
export async function createChildThread(
  env: RuntimeEnv,
  registry: Registry,
  parent: ChildParent,
  input: SpawnChildInput & { reportTo?: string },
): Promise<RpcResult<ThreadDetails>> {
  const agent = registry.agent(input.agent);
  if (!agent) return fail({ status: 400, code: 'unknown_agent', message: `no agent named "${input.agent}"` });
  const declared = registry.variablesFor(agent);
  const inherited = inheritVariableValues(parent.variables.resolved.values, declared, parent.scopedNames);
  const variables = { ...inherited, ...input.variables };
  const missing = missingVariables(declared, variables);
  if (missing.length > 0) {
    return fail({
      status: 400,
      code: 'missing_variables',
      message: `required variables without a value: ${missing.join(', ')}`,
      details: { missing },
    });
  }
  const childId = crypto.randomUUID();
  // ATT-4: the files go first, so the child's first step can already read them. The child has no
  // storage yet: the copies are checked against its quota here and counted when it is created.
  const childFiles = new R2FileStore(env.FILES, childId);
  const quota = registry.limits.threadStorageBytes;
  let handed: AttachmentRef[];
  try {
    handed = await copyIntoThread(env.FILES, parent.id, input.files ?? [], childFiles, PARENT_FILES, (files) => {
      const total = files.reduce((sum, file) => sum + file.size, 0);
      const last = files.at(-1);
      if (last && total > quota) throw new StorageQuotaExceeded(last.path, last.size, total - last.size, quota);
    });
  } catch (error) {
    await childFiles.deleteAll();
    if (error instanceof StorageQuotaExceeded) {
      return fail({ status: 413, code: 'storage_quota_exceeded', message: `the child's files: ${error.message}` });
    }
    return fail({ status: 400, code: 'invalid_files', message: (error as Error).message });
  }
  const messages = handed.length > 0 ? withFileNote(input.messages, handed) : input.messages;
  // TRACE-3: the child's turn is part of the trace of the call that started it.
  const span = activeSpan().set(ATTR.childThread, childId);
  return threadStub(env, childId).create({
    ...(span.traceparent ? { traceparent: span.traceparent } : {}),
    files: handed.map((file) => ({ path: file.path, size: file.size })),
    id: childId,
    agent: agent.name,
    tenant: parent.tenant,
    userId: parent.userId,
    ...(parent.shared ? { shared: true } : {}),
    messages,
    variables,
    tags: input.tags,
    // No human answers a child thread: its questions and asks fail at once (PERM-2).
    headless: true,
    parentId: parent.id,
    reportTo: input.reportTo,
    notifyParent: !input.reportTo && input.notify === true,
    resumable: input.instance !== undefined,
    // VAR-3: what the parent holds as a secret stays one in the child, under its name or another.
    secretNames: Object.entries(variables)
      .filter(
        ([name, value]) => parent.variables.secretNames.has(name) || parent.variables.scrubber.text(value) !== value,
      )
      .map(([name]) => name),
    inheritedPermissions: parent.rules,
    // SCOPE-1: what the parent held as scoped stays scoped below, whatever the child declares.
    scopedNames: [...parent.scopedNames].filter((name) => inherited[name] !== undefined),
  });
}

/** Where files handed to a child land in its filesystem. */
const PARENT_FILES = '/attachments/from-parent';

/** Tells the child where the files it was handed are, in a system message before its task. */
function withFileNote(messages: readonly InitialMessage[], files: readonly AttachmentRef[]): InitialMessage[] {
  const note = `Files for this task:\n${files.map((file) => `- ${file.path} (${file.mimeType}, ${file.size} bytes)`).join('\n')}`;
  return [{ role: 'system', content: note }, ...messages];
}

/** `state.notifyParent` (SUB-4 explicit communication): queues a message on the parent thread. */
export async function notifyParentThread(env: RuntimeEnv, record: ThreadRecord | null, message: string): Promise<void> {
  if (record?.parentId) await threadStub(env, record.parentId).childMessage(record.id, message);
}
