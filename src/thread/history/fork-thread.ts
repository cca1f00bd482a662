/**
 * Forking a thread (FORK-2, FORK-3), run by the source's object: the point is checked, the files as
 * they were there are copied into the fork's R2 keys, and the fork is created through the same
 * `create` RPC as every thread, with the log up to the point, the source's key-value rows (rules,
 * tool contexts, budget, ...) and its variables, the secrets among them sealed anew under the
 * fork's own key. The plaintext of the secrets goes from object to object and never through the
 * Worker. The fork is idle: it starts no turn until it is sent a message.
 */
import type { Message } from '../../spec/index.js';
import { missingVariables } from '../../spec/internal.js';
import type { Principal } from '../access/index.js';
import {
  type ApiError,
  type CreateThreadInput,
  type ForkAnswer,
  type ForkRequest,
  fail,
  type NotCopied,
  ok,
  R2FileStore,
  type RpcResult,
  type ThreadDetails,
  threadPrefix,
  threadStub,
} from '../bindings/index.js';
import type { ThreadRecord } from '../storage/index.js';
import { expiredHistory, type HistoryDesk, historyOf, runningPoint } from './history-desk.js';
import { logPoint } from './log-points.js';

/**
 * Key-value rows a fork does not take: what belongs to the source's own turns and family (the
 * message being streamed, a queued tool, the trace its next turn continues, its children and
 * instances, the waits it announced) and its model usage, which the fork starts again from zero.
 */
const NOT_COPIED_KEYS = new Set([
  'turn.streaming_message',
  'queued_tool',
  'trace:parent',
  'child_registry',
  'subagent_instances',
  'webhooks:announced_waits',
  'usage',
  'messages.highest_seq',
  'usage:thread',
  'usage:turn',
]);

/** Where the fork starts: the messages it copies (`upTo` the last index, -1 for none) and its files' point. */
interface ForkPoint {
  upTo: number;
  messageId: string | null;
  /** The files are those at this message seq. */
  fileSeq: number;
}

function notAUserMessage(id: string): ApiError {
  return {
    status: 400,
    code: 'not_a_user_message',
    message: `message ${id} is not a user message: only those are edited`,
  };
}

/** The point a request names, checked: inside no tool round, not inside the running turn, still in the history. */
function forkPoint(desk: HistoryDesk, log: readonly Message[], request: ForkRequest): RpcResult<ForkPoint> {
  let point: ForkPoint;
  if (request.before !== undefined) {
    const edited = log.findIndex((message) => message.id === request.before);
    const message = log[edited];
    if (!message)
      return fail({ status: 404, code: 'message_not_found', message: `no message ${request.before} in this thread` });
    if (message.role !== 'user' || message.depth !== 0) return fail(notAUserMessage(message.id));
    const previous = log[edited - 1];
    point = { upTo: edited - 1, messageId: previous?.id ?? null, fileSeq: previous?.seq ?? 0 };
    // A user message waits for a round's calls to end: the message before it closes the round.
    if (previous) {
      const checked = logPoint(log, previous.id);
      if (!checked.ok) return fail(checked.error);
    }
  } else {
    const checked = logPoint(log, request.at ?? '');
    if (!checked.ok) return fail(checked.error);
    point = { upTo: checked.index, messageId: checked.message.id, fileSeq: checked.message.seq };
  }
  const last = log[point.upTo];
  const problem = (last ? runningPoint(desk, last.seq) : null) ?? expiredHistory(desk, log, point.fileSeq);
  return problem ? fail(problem) : ok(point);
}

/**
 * What the fork leaves behind with the source: the source's open waits (a point is never inside the
 * round of a call that waits, so the fork has none of them), and the children started by calls it copied.
 */
function notCopied(desk: HistoryDesk, log: readonly Message[], point: ForkPoint): NotCopied {
  const waits = desk.store.openInteractions().map((wait) => wait.toolCallId);
  const after = log[point.upTo + 1]?.created_at ?? Number.POSITIVE_INFINITY;
  const children = desk.store
    .childEntries()
    .filter((child) => child.createdAt <= after && point.upTo >= 0)
    .map((child) => child.id);
  return { waits: [...new Set(waits)], children };
}

/** Copies the files as they were at the point into the fork's keys; refuses (413) what its quota cannot hold. */
async function copyFiles(
  desk: HistoryDesk,
  forkId: string,
  fileSeq: number,
): Promise<RpcResult<{ path: string; size: number }[]>> {
  const files = await historyOf(desk).filesAt(fileSeq);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const quota = desk.registry.limits.threadStorageBytes;
  if (total > quota) {
    return fail({
      status: 413,
      code: 'storage_quota_exceeded',
      message: `the fork's files (${total} bytes) do not fit a thread's ${quota} byte quota`,
    });
  }
  const bucket = desk.env.FILES;
  const prefix = threadPrefix(forkId);
  for (const file of files) {
    const object = await bucket.get(file.key);
    if (!object) throw new Error(`the copy of ${file.path} is missing`);
    await bucket.put(`${prefix}${file.path}`, object.body.pipeThrough(new FixedLengthStream(object.size)), {
      httpMetadata: object.httpMetadata ?? {},
      customMetadata: object.customMetadata ?? {},
    });
  }
  // Directory markers hold nothing and are not counted.
  return ok(files.filter((file) => !file.path.endsWith('/')).map((file) => ({ path: file.path, size: file.size })));
}

/** The variables the fork is created with: the source's, then the request's; secrets stay secrets. */
async function forkVariables(
  desk: HistoryDesk,
  agentName: string,
  overrides: Record<string, string>,
): Promise<RpcResult<{ values: Record<string, string>; secretNames: string[] }>> {
  const opened = await desk.variables.open();
  const values = { ...opened.resolved.values, ...overrides };
  const agent = desk.registry.agent(agentName);
  if (!agent) return fail({ status: 400, code: 'unknown_agent', message: `no agent named "${agentName}"` });
  const missing = missingVariables(desk.registry.variablesFor(agent), values);
  if (missing.length > 0) {
    return fail({
      status: 400,
      code: 'missing_variables',
      message: `required variables without a value: ${missing.join(', ')}`,
      details: { missing },
    });
  }
  const secretNames = Object.entries(values)
    .filter(([name, value]) => opened.secretNames.has(name) || opened.scrubber.text(value) !== value)
    .map(([name]) => name);
  return ok({ values, secretNames });
}

/** Forks the thread `record` for `principal` as the request says; see the file's header. */
export async function forkThread(
  desk: HistoryDesk,
  record: ThreadRecord,
  principal: Principal,
  request: ForkRequest,
): Promise<RpcResult<ForkAnswer>> {
  const log = desk.store.messages();
  const point = forkPoint(desk, log, request);
  if (!point.ok) return point;
  const agent = request.agent ?? record.agentId;
  const variables = await forkVariables(desk, agent, request.variables ?? {});
  if (!variables.ok) return variables;
  const left = notCopied(desk, log, point.value);
  const files = await copyFiles(desk, request.forkId, point.value.fileSeq);
  if (!files.ok) return files;
  const input: CreateThreadInput = {
    id: request.forkId,
    agent,
    tenant: principal.tenant,
    userId: principal.subject,
    messages: [],
    variables: variables.value.values,
    secretNames: variables.value.secretNames,
    tags: record.tags,
    headless: record.headless,
    files: files.value,
    fork: {
      from: { thread_id: record.id, message_id: point.value.messageId },
      log: log.slice(0, point.value.upTo + 1),
      values: desk.store.rawValues().filter(([key]) => !NOT_COPIED_KEYS.has(key)),
    },
  };
  // RPC's serialisation types lose the union's narrowing: it is the object's RpcResult.
  const created = (await threadStub(desk.env, request.forkId).create(input)) as RpcResult<ThreadDetails>;
  if (!created.ok) {
    await new R2FileStore(desk.env.FILES, request.forkId).deleteAll();
    return created;
  }
  return ok({ thread: created.value, not_copied: left });
}
