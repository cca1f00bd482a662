/**
 * What `ThreadState`'s message methods take and give (the specification's Messages chapter): new
 * messages, pages of the log, updates, and the activity log read from it.
 */
import type { Message, MessageRole } from './types.js';

export interface NewMessageInput {
  role: Exclude<MessageRole, 'tool'>;
  content: string;
  /** Kept in the log but never sent to the model. */
  silent?: boolean;
  metadata?: Record<string, unknown>;
}

export interface GetMessagesOptions {
  /** At most this many messages (default 100). */
  limit?: number;
  /** Skip this many from the start of the chosen order (default 0). */
  offset?: number;
  /** The order of the returned array: `'asc'` oldest first (default), `'desc'` newest first. */
  order?: 'asc' | 'desc';
  /** Include messages hidden from the model and the UI (turn markers, notes); default false. */
  includeSilent?: boolean;
  /** Only messages nested at most this deep (0: the main conversation, without prompt tools' runs). */
  maxDepth?: number;
  /** This runtime's cursor: only messages with `seq` greater than this (applied before the rest). */
  after?: number;
}

/** A page of the log (`getMessages`). */
export interface MessagesResult {
  messages: Message[];
  /** How many messages match the filters, on every page. */
  total: number;
  /** Whether messages past this page match too. */
  hasMore: boolean;
}

/** What `updateMessage` may change: the id, the role and a tool call's linkage never change. */
export interface MessageUpdates {
  /** The new text. */
  content?: string | null;
  /** Merged over the existing metadata; a key set to `null` is removed. */
  metadata?: Record<string, unknown>;
}

/** Options of `getLogs`. */
export interface GetLogsOptions {
  /** At most this many entries (default 100). */
  limit?: number;
  offset?: number;
  /** `'asc'` oldest first (default), `'desc'` newest first. */
  order?: 'asc' | 'desc';
}

/**
 * One entry of the thread's activity log (`getLogs`), read from its message log: a model step
 * (`llm_request`) or a tool call's end (`tool_call`).
 */
export interface Log {
  /** The id of the message the entry is read from. */
  id: string;
  type: 'llm_request' | 'tool_call';
  /**
   * `llm_request`: `{ message_id, side, depth, tool_calls }` (the names it called). `tool_call`:
   * `{ tool_call_id, name, status }` (`success` or `error`).
   */
  data: Record<string, unknown>;
  /** When it was stored, in microseconds. */
  created_at: number;
  /** A tool call's entry: the id of the model step that made the call. */
  parent_id?: string | null;
}
