/**
 * How a hook's return is read, point by point (HOOK-6): `undefined` keeps the value the hook was
 * given, `null` drops the call where the specification gives null a meaning (the tool-call hooks)
 * and keeps the value elsewhere, and a value of the wrong type is malformed: it is treated like a
 * throw (the hook is skipped, the failure is reported) and never stored.
 */
import type { LLMMessage, Message, ThreadState, ToolResult } from '../../spec/index.js';

export type Reading<T> = { kind: 'value'; value: T } | { kind: 'drop' } | { kind: 'malformed'; problem: string };

export type Reader<T> = (returned: unknown, given: T) => Reading<T>;

const keep = <T>(value: T): Reading<T> => ({ kind: 'value', value });
const malformed = (problem: string): { kind: 'malformed'; problem: string } => ({ kind: 'malformed', problem });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The roles a message may have; any other is refused. */
const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);

export const readString: Reader<string> = (returned, given) => {
  if (returned === undefined || returned === null) return keep(given);
  return typeof returned === 'string' ? keep(returned) : malformed('it returned something other than a string');
};

/**
 * A returned history: a list of messages, each with a known role and text content. A message the
 * hook made itself (a summary, a note) gets the fields of a stored message it lacks: it is sent as
 * part of the main conversation, for this request only.
 */
export const readMessages: Reader<Message[]> = (returned, given) => {
  if (returned === undefined || returned === null) return keep(given);
  if (!Array.isArray(returned)) return malformed('it returned something other than a list of messages');
  const bad = returned.findIndex(
    (message) =>
      !isRecord(message) ||
      !ROLES.has(message.role) ||
      !(message.content === null || message.content === undefined || typeof message.content === 'string'),
  );
  if (bad !== -1) return malformed(`item ${bad} of the list it returned is not a message`);
  const stored = new Set(given);
  return keep(returned.map((message) => (stored.has(message as Message) ? (message as Message) : completed(message))));
};

/** A message a hook made, with the fields of a stored one it left out. */
function completed(message: Record<string, unknown>): Message {
  return {
    id: crypto.randomUUID(),
    seq: 0,
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    created_at: Date.now(),
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: null,
    tool_status: null,
    attachments: null,
    envelope: null,
    ...message,
  } as Message;
}

/** A returned request: provider-shaped messages, each with a known role and text or parts. */
export const readModelMessages: Reader<LLMMessage[]> = (returned, given) => {
  if (returned === undefined || returned === null) return keep(given);
  if (!Array.isArray(returned)) return malformed('it returned something other than a list of messages');
  const bad = returned.findIndex(
    (message) =>
      !isRecord(message) ||
      !ROLES.has(message.role) ||
      !(typeof message.content === 'string' || Array.isArray(message.content) || message.content === null),
  );
  return bad === -1
    ? keep(returned as LLMMessage[])
    : malformed(`item ${bad} of the list it returned is not a message`);
};

/** Fields of a stored message a hook may not change: the log's own bookkeeping and tool linkage. */
const FIXED_FIELDS = ['id', 'seq', 'role', 'tool_call_id', 'tool_calls', 'created_at', 'depth', 'parent_id'] as const;

/** A returned message is merged over the one about to be stored; its fixed fields stay. */
export const readMessagePatch: Reader<Message> = (returned, given) => {
  if (returned === undefined || returned === null) return keep(given);
  if (!isRecord(returned)) return malformed('it returned something other than a message');
  if ('content' in returned && returned.content !== null && typeof returned.content !== 'string') {
    return malformed('the content it returned is not a string');
  }
  if ('metadata' in returned && returned.metadata !== null && !isRecord(returned.metadata)) {
    return malformed('the metadata it returned is not an object');
  }
  const merged = { ...given, ...returned } as Message;
  for (const field of FIXED_FIELDS) (merged as unknown as Record<string, unknown>)[field] = given[field];
  return keep(merged);
};

/** What `updateMessage` takes (the specification's MessageUpdates). */
type MessageUpdates = Parameters<ThreadState['updateMessage']>[1];

/** Updates a message may take: `content` (text or null) and `metadata` (an object), nothing else. */
export const readUpdates: Reader<MessageUpdates> = (returned, given) => {
  if (returned === undefined || returned === null) return keep(given);
  if (!isRecord(returned)) return malformed('it returned something other than an updates object');
  const other = Object.keys(returned).filter((key) => key !== 'content' && key !== 'metadata');
  if (other.length > 0)
    return malformed(`it returned updates of ${other.join(', ')}: only content and metadata change`);
  if (returned.content !== undefined && returned.content !== null && typeof returned.content !== 'string') {
    return malformed('the content it returned is not a string');
  }
  if (returned.metadata !== undefined && !isRecord(returned.metadata))
    return malformed('the metadata it returned is not an object');
  return keep(returned as MessageUpdates);
};

function toolResult(returned: unknown): Reading<ToolResult> {
  if (!isRecord(returned) || (returned.status !== 'success' && returned.status !== 'error')) {
    return malformed('it returned something other than a tool result ({ status: "success" | "error", ... })');
  }
  if (returned.error !== undefined && typeof returned.error !== 'string') return malformed('its error is not a string');
  return keep(returned as unknown as ToolResult);
}

/** `before_store_tool_result`: a tool result, or nothing to keep the one given. */
export const readToolResult: Reader<ToolResult> = (returned, given) =>
  returned === undefined || returned === null ? keep(given) : toolResult(returned);

/** The tool-call hooks: null drops the call (HOOK-9). */
export const readToolOutcome: Reader<ToolResult> = (returned, given) => {
  if (returned === undefined) return keep(given);
  if (returned === null) return { kind: 'drop' };
  return toolResult(returned);
};

/** Side-effect hooks: whatever they return is ignored. */
export const readNothing: Reader<null> = () => keep(null);
