/**
 * Child threads (SUB-2, SUB-7): each is a Thread Durable Object of its own, created by its parent
 * through a stub, inheriting the parent's variables except those it declares scoped (VAR-4). A child
 * started for a tool call reports its outcome back to that call — an answer or a failure, never
 * silence.
 */
import type { TurnOutcome } from '../engine/loop.js';
import type { Registry } from '../engine/registry.js';
import type { AttachmentRef, Message } from '../spec/index.js';
import { inheritVariableValues, missingVariables } from '../spec/variables.js';
import { copyIntoThread } from './cross-thread-files.js';
import type { RuntimeEnv } from './env.js';
import { R2FileStore } from './r2-file-store.js';
import { fail, type InitialMessage, type RpcResult, type SpawnChildInput, type ThreadDetails } from './thread-api.js';
import type { ThreadMeta, ThreadRecord } from './thread-meta.js';
import { threadStub } from './thread-stub.js';
import type { LoadedVariables } from './variables.js';

export interface ChildParent {
  id: string;
  userId: string;
  variables: LoadedVariables;
}

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
  const variables = { ...inheritVariableValues(parent.variables.resolved.values, declared), ...input.variables };
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
  // ATT-4: the files go first, so the child's first step can already read them.
  let handed: AttachmentRef[];
  try {
    handed = await copyIntoThread(env.FILES, parent.id, input.files ?? [], childId, PARENT_FILES);
  } catch (error) {
    await new R2FileStore(env.FILES, childId).deleteAll();
    return fail({ status: 400, code: 'invalid_files', message: (error as Error).message });
  }
  const messages = handed.length > 0 ? withFileNote(input.messages, handed) : input.messages;
  return threadStub(env, childId).create({
    id: childId,
    agent: agent.name,
    userId: parent.userId,
    messages,
    variables,
    tags: input.tags,
    // No human answers a child thread: its questions and asks fail at once (PERM-2).
    headless: true,
    parentId: parent.id,
    reportTo: input.reportTo,
    notifyParent: !input.reportTo && input.notify === true,
    resumable: input.instance !== undefined,
    secretNames: [...parent.variables.secretNames].filter((name) => name in variables),
  });
}

/** Where files handed to a child land in its filesystem. */
const PARENT_FILES = '/attachments/from-parent';

/** Tells the child where the files it was handed are, in a system message before its task. */
function withFileNote(messages: readonly InitialMessage[], files: readonly AttachmentRef[]): InitialMessage[] {
  const note = `Files for this task:\n${files.map((file) => `- ${file.path} (${file.mimeType}, ${file.size} bytes)`).join('\n')}`;
  return [{ role: 'system', content: note }, ...messages];
}

/** What a child's turn means to the tool call that waits for it. */
export interface ChildOutcome {
  status: 'success' | 'error';
  result?: string;
  error?: string;
  child_id: string;
  /** Files the child produced in its turn, copied into the parent: valid there (ATT-4). */
  attachments?: AttachmentRef[];
}

/** Attachments of the child's tool results since its first user message: what it produced. */
export function producedFiles(log: readonly Message[]): AttachmentRef[] {
  return log
    .filter((message) => message.role === 'tool' && message.depth === 0)
    .flatMap((message) => message.attachments ?? []);
}

export function childOutcome(childId: string, outcome: TurnOutcome, log: readonly Message[]): ChildOutcome | null {
  switch (outcome.kind) {
    case 'waiting':
      return null;
    case 'done': {
      // DEF-6: a session ended by a stop tool answers with what the tool gave.
      if (outcome.reason === 'stop_tool') return { status: 'success', result: outcome.answer, child_id: childId };
      const answer = [...log].reverse().find((message) => message.role === 'assistant' && message.depth === 0);
      return { status: 'success', result: answer?.content ?? '', child_id: childId };
    }
    case 'stopped':
      return { status: 'error', error: 'The child thread was stopped before it finished.', child_id: childId };
    default:
      return { status: 'error', error: `The child thread failed: ${outcome.message}`, child_id: childId };
  }
}

/** Tells the parent how this child's turn ended, once, if a parent's tool call waits for it. */
export async function reportToParent(
  env: RuntimeEnv,
  meta: ThreadMeta,
  record: ThreadRecord,
  outcome: TurnOutcome,
  log: readonly Message[],
): Promise<void> {
  if (!record.parentId || !(record.reportTo || record.notifyParent)) return;
  // A resumable instance reports the end of every session (marked by the log's length then); any
  // other child only its first.
  const mark = record.resumable ? log.length : true;
  const previous = meta.get<number | boolean>('reported');
  if (previous === mark) return;
  const report = childOutcome(record.id, outcome, log);
  if (!report) return;
  meta.set('reported', mark);
  try {
    const produced = producedFiles(log);
    if (produced.length > 0) {
      const folder = `/attachments/from-${record.id.slice(0, 8)}`;
      const paths = produced.map((file) => file.path);
      report.attachments = await copyIntoThread(env.FILES, record.id, paths, record.parentId, folder);
    }
    const parent = threadStub(env, record.parentId);
    if (record.reportTo) await parent.childFinished(record.id, record.reportTo, report);
    else await parent.childMessage(record.id, childMessage(record, report));
  } catch (error) {
    meta.set('reported', previous ?? false);
    console.error(`child ${record.id} could not report to ${record.parentId}: ${(error as Error).message}`);
  }
}

/** How a non-blocking child's outcome reads as a message to its parent (SUB-3). */
function childMessage(record: ThreadRecord, report: ChildOutcome): string {
  const name = record.tags.find((tag) => tag.startsWith('name:'))?.slice(5);
  const who = `Subagent ${record.agentId}${name ? ` "${name}"` : ''} (thread ${record.id})`;
  const files = (report.attachments ?? []).map((file) => `\n- ${file.path}`).join('');
  return report.status === 'success'
    ? `${who} finished:\n${report.result ?? ''}${files ? `\nFiles:${files}` : ''}`
    : `${who} failed: ${report.error ?? 'no message'}`;
}

/** `state.notifyParent` (SUB-4 explicit communication): queues a message on the parent thread. */
export async function notifyParentThread(env: RuntimeEnv, record: ThreadRecord | null, message: string): Promise<void> {
  if (record?.parentId) await threadStub(env, record.parentId).childMessage(record.id, message);
}
