/**
 * The ThreadState members over the thread's message log (the specification's Messages chapter):
 * pages of it, one message, changing and removing stored messages, the activity log read from it,
 * queued tool calls, the thread's status in its parent's registry and its termination.
 *
 * Changing the log is refused wherever it would leave a log no provider accepts or the loop would
 * misread: a message of the turn still running, a call still waiting, a tool result without its
 * call, a change to a message's role, id or tool-call linkage.
 */
import type {
  AgentDefinition,
  ExecutionState,
  GetLogsOptions,
  GetMessagesOptions,
  Log,
  Message,
  MessagesResult,
  PromptDefinition,
  ThreadState,
} from '../../spec/index.js';
import type { ThreadFiles } from '../files/index.js';
import type { AccessGate } from '../permissions/index.js';
import type { FrameSink, ThreadHost, ThreadStore } from '../ports/index.js';

/** What these members use of the state's dependencies (a part of thread-state.ts's ThreadStateDeps). */
export interface MessageStateDeps {
  store: ThreadStore;
  files: ThreadFiles;
  emit: FrameSink;
  host: ThreadHost;
  execution: ExecutionState | null;
  gate?: AccessGate;
  /** The application's agents and prompts: which tools `queueTool` may name. */
  registry?: {
    readonly agents: ReadonlyMap<string, AgentDefinition>;
    readonly prompts: ReadonlyMap<string, PromptDefinition>;
  };
}

/** What `updateMessage` takes (the specification's MessageUpdates). */
type MessageUpdates = Parameters<ThreadState['updateMessage']>[1];

const DEFAULT_PAGE = 100;

/** A whole number ≥ 0 from a caller's option, or the default; anything else is refused. */
function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0) || (!Number.isInteger(value) && value !== Infinity)) {
    throw new TypeError(`getMessages: ${name} must be a whole number of at least 0`);
  }
  return value;
}

/** A page of `log` as `getMessages` answers it; the filters apply before the paging. */
export function pageOfMessages(log: readonly Message[], options: GetMessagesOptions = {}): MessagesResult {
  const limit = count(options.limit, 'limit', DEFAULT_PAGE);
  const offset = count(options.offset, 'offset', 0);
  const after = count(options.after, 'after', 0);
  const maxDepth = count(options.maxDepth, 'maxDepth', Infinity);
  if (options.order !== undefined && options.order !== 'asc' && options.order !== 'desc') {
    throw new TypeError("getMessages: order must be 'asc' or 'desc'");
  }
  const matching = log.filter(
    (message) =>
      message.seq > after && message.depth <= maxDepth && (options.includeSilent === true || !message.silent),
  );
  const ordered = options.order === 'desc' ? [...matching].reverse() : matching;
  const messages = ordered.slice(offset, offset + limit);
  return { messages, total: matching.length, hasMore: offset + messages.length < matching.length };
}

/** The ids of the calls `message` made that no tool message answers yet. */
function unansweredCalls(log: readonly Message[], message: Message): string[] {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return [];
  const answered = new Set(log.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return calls.filter((call) => !answered.has(call.id)).map((call) => call.id);
}

/** The newest user message of the main conversation: where the running turn began. */
function turnStart(log: readonly Message[]): number {
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index] as Message;
    if (message.role === 'user' && message.depth === 0) return message.seq;
  }
  return 0;
}

/** Why changing `message` would corrupt the log, or null. */
function refusal(deps: MessageStateDeps, log: readonly Message[], message: Message): string | null {
  const running = deps.execution !== null || deps.host.turnRunning?.() === true;
  if (running && message.seq >= turnStart(log)) {
    return `message ${message.id} belongs to the turn still running: change it once the turn has ended`;
  }
  const waiting = unansweredCalls(log, message);
  if (
    waiting.length > 0 ||
    (message.tool_calls ?? []).some((c) => deps.store.interactions(c.id).some((i) => !i.answered))
  ) {
    return `message ${message.id} made calls still waiting for their results (${waiting.join(', ') || 'an answer'})`;
  }
  return null;
}

/**
 * The message and what goes with it: the results of the calls it made and the runs of prompt tools
 * nested under them, whatever their depth.
 */
function withDependents(log: readonly Message[], root: Message): Message[] {
  const ids = new Set([root.id]);
  const calls = new Set((root.tool_calls ?? []).map((call) => call.id));
  let grew = true;
  while (grew) {
    grew = false;
    for (const message of log) {
      if (ids.has(message.id)) continue;
      const result = message.role === 'tool' && message.tool_call_id !== null && calls.has(message.tool_call_id);
      const nested = message.parent_id !== null && ids.has(message.parent_id);
      if (!result && !nested) continue;
      ids.add(message.id);
      for (const call of message.tool_calls ?? []) calls.add(call.id);
      grew = true;
    }
  }
  return log.filter((message) => ids.has(message.id));
}

/** What `updateMessage` accepts: `content` and `metadata`, nothing else. */
function checkedUpdates(updates: unknown): MessageUpdates {
  if (typeof updates !== 'object' || updates === null || Array.isArray(updates)) {
    throw new TypeError('updateMessage: updates must be an object with content and/or metadata');
  }
  const other = Object.keys(updates).filter((key) => key !== 'content' && key !== 'metadata');
  if (other.length > 0) {
    throw new TypeError(
      `updateMessage: only content and metadata can change, not ${other.join(', ')} (a message's id, role and tool calls are fixed)`,
    );
  }
  const { content, metadata } = updates as MessageUpdates;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw new TypeError('updateMessage: content must be a string or null');
  }
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    throw new TypeError('updateMessage: metadata must be an object');
  }
  return updates as MessageUpdates;
}

/** Metadata after an update: merged over the old, a key set to null removed. */
function mergedMetadata(old: Message['metadata'], patch: Record<string, unknown>): Record<string, unknown> | null {
  const merged: Record<string, unknown> = { ...(old ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? merged : null;
}

/**
 * The one place a stored message changes: checked, written, announced with a `message_updated`
 * frame. Hooks that run around an update wrap this.
 */
export function updateStoredMessage(deps: MessageStateDeps, messageId: string, updates: MessageUpdates): Message {
  const { store } = deps;
  const checked = checkedUpdates(updates);
  const log = store.messages();
  const message = log.find((candidate) => candidate.id === messageId);
  if (!message) throw new Error(`updateMessage: no message ${messageId} in this thread`);
  const refused = refusal(deps, log, message);
  if (refused) throw new Error(`updateMessage: ${refused}`);
  const patch: { content?: string | null; metadata?: Record<string, unknown> | null } = {};
  if (checked.content !== undefined) patch.content = checked.content;
  if (checked.metadata !== undefined) patch.metadata = mergedMetadata(message.metadata, checked.metadata);
  const updated = store.updateMessage(messageId, patch);
  if (!updated) throw new Error(`updateMessage: no message ${messageId} in this thread`);
  deps.emit({ type: 'message_updated', message: updated });
  return updated;
}

/** Removes a message and its dependents, and their attachments; false for an unknown id. */
export async function deleteStoredMessage(deps: MessageStateDeps, messageId: string): Promise<boolean> {
  const { store, gate } = deps;
  const log = store.messages();
  const message = log.find((candidate) => candidate.id === messageId);
  if (!message) return false;
  if (message.role === 'tool') {
    throw new Error(
      `deleteMessage: message ${messageId} is a tool result: delete the assistant message that made the call (its results go with it)`,
    );
  }
  const refused = refusal(deps, log, message);
  if (refused) throw new Error(`deleteMessage: ${refused}`);
  const doomed = withDependents(log, message);
  const paths = doomed.flatMap((m) => (m.attachments ?? []).map((attachment) => attachment.path));
  // The call's rules are asked first: a refused path leaves everything as it was.
  const allowed = paths.map((path) => (gate ? gate.write(path) : path));
  store.deleteMessages(doomed.map((m) => m.id));
  deps.emit({ type: 'message_deleted', message_ids: doomed.map((m) => m.id) });
  for (const path of allowed) await deps.files.unlink(path).catch(() => false);
  return true;
}

/** The activity log read from the message log: each model step and each call's end. */
export function logsOf(log: readonly Message[], options: GetLogsOptions = {}): Log[] {
  const entries: Log[] = [];
  const stepOfCall = new Map<string, string>();
  for (const message of log) {
    if (message.role === 'assistant' && message.metadata?.queued_tool === undefined) {
      for (const call of message.tool_calls ?? []) stepOfCall.set(call.id, message.id);
      entries.push({
        id: message.id,
        type: 'llm_request',
        data: {
          message_id: message.id,
          side: message.metadata?.side === 'b' ? 'b' : 'a',
          depth: message.depth,
          tool_calls: (message.tool_calls ?? []).map((call) => call.function.name),
        },
        created_at: message.created_at * 1000,
        parent_id: message.parent_id,
      });
    } else if (message.role === 'tool' && message.tool_call_id) {
      entries.push({
        id: message.id,
        type: 'tool_call',
        data: { tool_call_id: message.tool_call_id, name: message.name, status: message.tool_status ?? 'success' },
        created_at: message.created_at * 1000,
        parent_id: stepOfCall.get(message.tool_call_id) ?? null,
      });
    }
  }
  const limit = options.limit ?? DEFAULT_PAGE;
  const offset = options.offset ?? 0;
  const ordered = options.order === 'desc' ? entries.reverse() : entries;
  return ordered.slice(offset, offset + limit);
}

/** The stored ms termination time as the state shows it: µs, or null. */
export function terminatedAt(store: ThreadStore): number | null {
  const at = store.info.terminatedAt;
  return typeof at === 'number' ? at * 1000 : null;
}

/** Refuses an act on a terminated thread. */
export function refuseTerminated(store: ThreadStore, what: string): void {
  if (typeof store.info.terminatedAt === 'number') {
    throw new Error(`${what}: thread ${store.info.id} is terminated (terminated_at=${store.info.terminatedAt * 1000})`);
  }
}

/** The members of this chapter that `createThreadState` spreads in (`terminated` is a getter there). */
export function messageMembers(
  deps: MessageStateDeps,
): Pick<
  ThreadState,
  'getMessage' | 'updateMessage' | 'deleteMessage' | 'getLogs' | 'queueTool' | 'setStatus' | 'terminate'
> {
  const { store, host } = deps;
  return {
    async getMessage(messageId: string) {
      return store.messages().find((message) => message.id === messageId) ?? null;
    },
    async updateMessage(messageId, updates) {
      return updateStoredMessage(deps, messageId, updates);
    },
    deleteMessage: (messageId) => deleteStoredMessage(deps, messageId),
    async getLogs(options) {
      return logsOf(store.messages(), options);
    },
    queueTool(toolName, args) {
      refuseTerminated(store, 'queueTool');
      queueToolCall(deps, toolName, args);
    },
    async setStatus(status: string) {
      if (typeof status !== 'string' || status.trim() === '')
        throw new TypeError('setStatus: status must not be empty');
      if (!store.info.parentId || !host.setStatus) return;
      await host.setStatus(status.trim());
    },
    async terminate() {
      if (typeof store.info.terminatedAt === 'number') return;
      if (!host.terminate) throw new Error('terminate: this thread cannot be terminated from here');
      // From inside a call the running turn is this call's own: it is aborted, never waited for.
      await host.terminate({ fromTurn: deps.execution !== null });
    },
  };
}

/** The store key of a queued call's message: the loop delivers it as an assistant step's call. */
export const QUEUED_TOOL_KEY = 'queued_tool';

/** The tools the thread's agent offers (its sides' prompts'), by name; undefined without definitions. */
function offeredTools(deps: MessageStateDeps): string[] | undefined {
  const catalog = deps.registry;
  const agent = catalog?.agents.get(deps.store.info.agentId);
  if (!catalog || !agent) return undefined;
  const prompts = [agent.sideA, agent.sideB].flatMap((side) => (side ? [catalog.prompts.get(side.prompt)] : []));
  return [...new Set(prompts.flatMap((prompt) => prompt?.tools ?? []))];
}

/** Stores a queued call with the thread's queued messages and wakes the loop. */
function queueToolCall(deps: MessageStateDeps, toolName: string, args: Record<string, unknown>): void {
  if (typeof toolName !== 'string' || toolName === '') throw new TypeError('queueTool: toolName must be a tool name');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new TypeError('queueTool: args must be an object');
  }
  const known = offeredTools(deps);
  if (known && !known.includes(toolName)) {
    throw new Error(
      `queueTool: unknown tool "${toolName}": this thread's agent offers ${known.join(', ') || 'no tools'}`,
    );
  }
  const text = JSON.stringify(args);
  const callId = `call_${crypto.randomUUID().replaceAll('-', '')}`;
  deps.store.enqueue({
    role: 'assistant',
    content: '',
    metadata: { [QUEUED_TOOL_KEY]: { id: callId, name: toolName, arguments: text } },
  });
  deps.host.wake();
}
