/**
 * What the engine needs of a thread's storage. Methods are synchronous because the Durable Object's
 * SQLite is; the in-memory store used by engine tests implements the same interface.
 */
import type {
  AttachmentRef,
  Interaction,
  InteractionKind,
  Message,
  NewMessageInput,
  ToolCall,
  ToolEnvelope,
} from '../../spec/index.js';

export interface ThreadInfo {
  id: string;
  agentId: string;
  userId: string | null;
  createdAt: number;
  /** No human side: interactive pauses fail at once (LOCK-1, PERM-2). */
  headless: boolean;
  parentId: string | null;
  /** When the thread was terminated (ms since the epoch); absent or null while it is not. */
  terminatedAt?: number | null;
}

export interface NewMessage {
  id?: string;
  role: Message['role'];
  content: string | null;
  name?: string | null;
  tool_calls?: ToolCall[] | null;
  tool_call_id?: string | null;
  parent_id?: string | null;
  depth?: number;
  silent?: boolean;
  metadata?: Record<string, unknown> | null;
  tool_status?: 'success' | 'error' | null;
  attachments?: AttachmentRef[] | null;
  envelope?: ToolEnvelope | null;
}

/** A child thread in its parent's registry, with its start time in ms (ThreadState shows µs). */
export interface ChildEntry {
  id: string;
  /** The agent it runs. */
  name: string;
  title?: string;
  description: string;
  resumable?: boolean;
  blocking?: boolean;
  /** A resumable instance's name. */
  threadName?: string;
  createdAt: number;
  status: string;
}

/**
 * A message waiting for delivery; its id is fixed when it is queued so callers can refer to it. A
 * user's message keeps its files (MSG-4) while it waits.
 */
export type QueuedMessage = NewMessageInput & { id?: string; attachments?: AttachmentRef[] };

export interface ThreadStore {
  readonly info: ThreadInfo;
  /** The whole log, oldest first. Implementations keep it in memory: a step must not re-read it. */
  messages(): readonly Message[];
  append(message: NewMessage): Message;
  /**
   * Replaces a stored message's content and/or metadata (scrubbed as on append); the updated
   * message, or null for an unknown id. The log keeps its order; its array is a new one.
   */
  updateMessage(
    id: string,
    patch: { content?: string | null; metadata?: Record<string, unknown> | null },
  ): Message | null;
  /** Removes these messages from the log (unknown ids are ignored); the log's array is a new one. */
  deleteMessages(ids: readonly string[]): void;
  getValue(key: string): unknown;
  setValue(key: string, value: unknown): void;
  /**
   * What `derive` makes of a key's value, kept in memory until the key is written again: a thread's
   * permission rules are read at every call and change rarely. `derive` is a module's constant (it
   * names what is kept) and must not change what it is given. A store that keeps nothing in memory
   * derives it at each call.
   */
  derivedValue<T>(key: string, derive: (value: unknown) => T): T;
  /** Messages waiting for the thread to be between steps (SUB-7). */
  enqueue(message: QueuedMessage): void;
  drainQueue(): QueuedMessage[];
  /** Journal of tool calls whose execution began, so a restart never runs one twice (THR-3). */
  markToolStarted(toolCallId: string): void;
  toolStarted(toolCallId: string): boolean;
  /** A call that paused for an answer (CallPaused) runs again from its start once answered. */
  clearToolStarted(toolCallId: string): void;
  children(): string[];
  /** The child threads as the registry records them, oldest first (`state.children`). */
  childEntries(): ChildEntry[];
  /**
   * A child's status in the registry (`'running'`, `'idle'`, `'terminated'` or the child's own, set
   * with `setStatus`); false for a thread that is not a child. `'terminated'` is final. `fromTurn`:
   * the runtime reports a turn's start or end, and a turn's end keeps a status the child set itself.
   */
  setChildStatus(childId: string, status: string, fromTurn?: boolean): boolean;
  /** Makes another agent the thread's owner from the next step on (SUB-2 handoff). */
  handoff(agentId: string): void;
  /** The interactions a tool call waits on or waited on (KIND-3, KIND-4, KIND-5, LOCK-1 question). */
  interactions(toolCallId: string): Interaction[];
  /** Stores a wait, or returns the stored one (possibly answered already) for the same call and kind. */
  openInteraction(interaction: Omit<Interaction, 'answered' | 'answer' | 'createdAt'>): Interaction;
  /** Records the answer; false if the call has no open interaction of that kind. */
  answerInteraction(toolCallId: string, kind: InteractionKind, answer: unknown): boolean;
  /**
   * Records an answer whether or not the wait is open yet (a child thread may finish before its
   * parent has stored the wait); false if it was answered already.
   */
  recordAnswer(toolCallId: string, kind: InteractionKind, answer: unknown): boolean;
  /** Interactions still waiting for an answer, oldest first. */
  openInteractions(): Interaction[];
}
