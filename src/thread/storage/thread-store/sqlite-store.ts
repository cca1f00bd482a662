/**
 * The ThreadStore over the Durable Object's SQLite. The message log is appended one row per message
 * and mirrored in memory after the first read, so a step never re-reads the history (the cost of a
 * step does not grow with the length of the log).
 *
 * It is also the boundary every stored message crosses (EXE-8): whoever appends or queues one (the
 * loop, a tool's injected or queued message, a user, a parent, a child's report), its text is
 * scrubbed of the thread's secrets on the way in, as are interaction payloads and answers and the
 * values tools store. Nothing in these tables holds a secret in plain text.
 *
 * The object is this store's only writer, so what every step asks again (key-value entries, the
 * calls under way, whether any call ever paused, the children) is read from SQLite once and then
 * answered from memory. A transaction that throws drops those mirrors: they are read again from
 * what SQLite kept.
 */

import { isToolWrittenKey } from '../../../engine/execute/index.js';
import type { ChildEntry, NewMessage, QueuedMessage, ThreadInfo, ThreadStore } from '../../../engine/ports/index.js';
import { type SecretScrubber, scrubMessage } from '../../../engine/secrets/index.js';
import type { Interaction, InteractionKind, Message } from '../../../spec/index.js';
import type { ChildFacts } from './child-registry.js';
import { ChildRows } from './child-rows.js';
import { InteractionRows } from './interaction-rows.js';
import { autoincrementSeq, insertMessageRow, jsonOrNull, messageFromRow } from './message-rows.js';

/**
 * Longer kv values (a tool may store large ones) are not kept in memory beside SQLite: each read
 * of one goes to SQLite, so the mirror stays small whatever tools store.
 */
const MIRRORED_VALUE_MAX_CHARS = 64 * 1024;
/** A kv row that exists but is too long to mirror. */
const UNMIRRORED = Symbol('unmirrored');

/** The kv row keeping the highest message seq once messages were deleted (see `nextSeq`). */
export const HIGHEST_SEQ_KEY = 'messages.highest_seq';

/**
 * Where the thread's record is kept (the storage room's ThreadMeta): a handoff and a termination
 * change it, so every reader of the record sees them.
 */
export interface RecordKeeper {
  record(): ThreadInfo | null;
  set(key: 'thread', record: ThreadInfo): void;
}

export class SqliteThreadStore implements ThreadStore {
  private log: Message[] | null = null;
  /** kv rows as stored (JSON text, null for none), by stored key. */
  private readonly values = new Map<string, string | null | typeof UNMIRRORED>();
  /** Every stored kv row is in `values`: a key missing there has no row. */
  private valuesComplete = false;
  /** What `derivedValue` made of a kv row, by stored key: dropped when the row is written. */
  private readonly derived = new Map<string, { derive: (value: unknown) => unknown; value: unknown }>();
  /** Calls whose execution began and has not ended (THR-3). */
  private startedCalls: Set<string> | null = null;
  /** The highest message seq ever given, deleted messages' included: the next is one more. */
  private highestSeq: number | null = null;

  private readonly sql: SqlStorage;
  private readonly waits: InteractionRows;
  private readonly childRows: ChildRows;

  /** `scrubber` is read at each write: it changes when a secret is stored mid-thread (VAR-5). */
  constructor(
    storage: DurableObjectStorage,
    private readonly meta: RecordKeeper,
    readonly info: ThreadInfo,
    private readonly scrubber: () => SecretScrubber,
  ) {
    this.sql = storage.sql;
    this.waits = new InteractionRows(this.sql, scrubber);
    this.childRows = new ChildRows(this.sql, this);
  }

  /**
   * For a thread being created: its tables are empty, so nothing needs reading to know what they
   * hold (a thread's first request is also its object's first).
   */
  startEmpty(): void {
    this.log = [];
    this.valuesComplete = true;
    this.waits.startEmpty();
    this.childRows.startEmpty();
    this.startedCalls = new Set();
    this.highestSeq = 0;
  }

  /** Runs `write` as one SQLite transaction; if it throws, nothing of it stays, in SQLite or in memory. */
  transaction<T>(storage: DurableObjectStorage, write: () => T): T {
    try {
      return storage.transactionSync(write);
    } catch (error) {
      this.log = null;
      this.values.clear();
      this.derived.clear();
      this.valuesComplete = false;
      this.waits.forget();
      this.childRows.forget();
      this.startedCalls = null;
      this.highestSeq = null;
      throw error;
    }
  }

  messages(): readonly Message[] {
    if (!this.log) {
      this.log = this.sql.exec('SELECT * FROM messages ORDER BY seq').toArray().map(messageFromRow);
    }
    return this.log;
  }

  append(raw: NewMessage): Message {
    const input = scrubMessage(this.scrubber(), raw);
    const log = this.messages() as Message[];
    const message: Omit<Message, 'seq'> = {
      id: input.id ?? crypto.randomUUID(),
      role: input.role,
      content: input.content,
      name: input.name ?? null,
      tool_calls: input.tool_calls ?? null,
      tool_call_id: input.tool_call_id ?? null,
      created_at: Date.now(),
      parent_id: input.parent_id ?? null,
      depth: input.depth ?? 0,
      silent: input.silent ?? false,
      metadata: input.metadata ?? null,
      tool_status: input.tool_status ?? null,
      attachments: input.attachments ?? null,
      envelope: input.envelope ?? null,
    };
    const stored = { ...message, seq: this.nextSeq() };
    insertMessageRow(this.sql, stored);
    this.highestSeq = stored.seq;
    log.push(stored);
    return stored;
  }

  /**
   * A fork's log (FORK-2): the source's messages as they are, same ids and seqs, into a store made
   * with `startEmpty`. They were scrubbed when the source stored them.
   */
  copyLog(messages: readonly Message[]): void {
    const log = this.messages() as Message[];
    for (const message of messages) {
      insertMessageRow(this.sql, message);
      log.push(message);
      this.highestSeq = Math.max(this.highestSeq ?? 0, message.seq);
    }
  }

  /** Every kv row as stored (key, JSON text): what a fork copies. */
  rawValues(): [string, string][] {
    return this.sql
      .exec<{ key: string; value: string }>('SELECT key, value FROM kv ORDER BY key')
      .toArray()
      .map((row) => [row.key, row.value]);
  }

  /** A kv row copied as it was stored elsewhere (a fork's source): key and text kept as they are. */
  setRawValue(key: string, text: string): void {
    this.sql.exec('INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)', key, text);
    this.mirror(key, text);
  }

  updateMessage(
    id: string,
    patch: { content?: string | null; metadata?: Record<string, unknown> | null },
  ): Message | null {
    const log = this.messages();
    const index = log.findIndex((message) => message.id === id);
    const old = log[index];
    if (!old) return null;
    const clean = scrubMessage(this.scrubber(), { content: old.content, metadata: old.metadata, ...patch });
    const updated: Message = { ...old, content: clean.content, metadata: clean.metadata ?? null };
    this.sql.exec(
      'UPDATE messages SET content = ?, metadata = ? WHERE id = ?',
      updated.content,
      jsonOrNull(updated.metadata),
      id,
    );
    // A new array: views of the log (a dual_ai side's) see that it changed.
    this.log = log.map((message, at) => (at === index ? updated : message));
    return updated;
  }

  deleteMessages(ids: readonly string[]): void {
    if (ids.length === 0) return;
    // Kept before the rows go: a later message must not take a deleted one's number.
    const highest = this.nextSeq() - 1;
    if (highest > ((this.getValue(HIGHEST_SEQ_KEY) as number | undefined) ?? 0))
      this.setValue(HIGHEST_SEQ_KEY, highest);
    const doomed = new Set(ids);
    // One statement per id: a statement binds at most 100 values.
    for (const id of doomed) this.sql.exec('DELETE FROM messages WHERE id = ?', id);
    this.log = this.messages().filter((message) => !doomed.has(message.id));
  }

  /**
   * The next message's seq: one more than any given before, deleted or not. The messages table numbers
   * nothing itself (AUTOINCREMENT would write a row of sqlite_sequence per message): the highest seq is
   * the log's last, or the one kept when messages were deleted, or, in a thread whose table was made
   * with AUTOINCREMENT, the one SQLite kept.
   */
  private nextSeq(): number {
    if (this.highestSeq === null) {
      const kept = (this.getValue(HIGHEST_SEQ_KEY) as number | undefined) ?? 0;
      this.highestSeq = Math.max(this.messages().at(-1)?.seq ?? 0, kept, autoincrementSeq(this.sql));
    }
    return this.highestSeq + 1;
  }

  /**
   * Up to `limit` messages after `after` in seq order, and where the next page starts (null at the
   * end); reads SQLite directly so paging never loads the whole log.
   */
  page(after: number, limit: number, depth: number | null): { messages: Message[]; next_after: number | null } {
    // One more than asked for tells whether another page follows.
    const rows =
      depth === null
        ? this.sql.exec('SELECT * FROM messages WHERE seq > ? ORDER BY seq LIMIT ?', after, limit + 1)
        : this.sql.exec(
            'SELECT * FROM messages WHERE seq > ? AND depth <= ? ORDER BY seq LIMIT ?',
            after,
            depth,
            limit + 1,
          );
    const found = rows.toArray().map(messageFromRow);
    const messages = found.slice(0, limit);
    const last = messages[messages.length - 1];
    return { messages, next_after: found.length > limit && last ? last.seq : null };
  }

  messageCount(): number {
    if (this.log) return this.log.length;
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM messages').one().n;
  }

  /** A tool's key is scrubbed like its value, on reads too, so the tool finds what it stored. */
  private kvKey(key: string): string {
    return isToolWrittenKey(key) ? this.scrubber().text(key) : key;
  }

  /** A fresh copy on every read: a caller changing what it got changes nothing stored. */
  getValue(key: string): unknown {
    const stored = this.kvKey(key);
    let text = this.values.get(stored);
    if (text === undefined && this.valuesComplete) text = null;
    if (text === undefined || text === UNMIRRORED) {
      text = this.sql.exec<{ value: string }>('SELECT value FROM kv WHERE key = ?', stored).toArray()[0]?.value ?? null;
      this.mirror(stored, text);
    }
    return text === null ? undefined : JSON.parse(text);
  }

  derivedValue<T>(key: string, derive: (value: unknown) => T): T {
    const stored = this.kvKey(key);
    const kept = this.derived.get(stored);
    if (kept?.derive === derive) return kept.value as T;
    const value = derive(this.getValue(key));
    this.derived.set(stored, { derive, value });
    return value;
  }

  private mirror(stored: string, text: string | null): void {
    this.values.set(stored, text !== null && text.length > MIRRORED_VALUE_MAX_CHARS ? UNMIRRORED : text);
  }

  setValue(key: string, value: unknown): void {
    const stored = this.kvKey(key);
    this.derived.delete(stored);
    if (value === undefined) {
      this.sql.exec('DELETE FROM kv WHERE key = ?', stored);
      this.values.set(stored, null);
      return;
    }
    const clean = isToolWrittenKey(key) ? this.scrubber().value(value) : value;
    const text = JSON.stringify(clean);
    this.sql.exec('INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)', stored, text);
    this.mirror(stored, text);
  }

  enqueue(message: QueuedMessage): void {
    this.sql.exec('INSERT INTO queue (body) VALUES (?)', JSON.stringify(scrubMessage(this.scrubber(), message)));
  }

  drainQueue(): QueuedMessage[] {
    const rows = this.sql.exec<{ seq: number; body: string }>('DELETE FROM queue RETURNING seq, body').toArray();
    // RETURNING gives no order guarantee; delivery must follow arrival (SUB-7).
    return rows.sort((a, b) => a.seq - b.seq).map((row) => JSON.parse(row.body) as QueuedMessage);
  }

  hasQueued(): boolean {
    return this.sql.exec('SELECT 1 FROM queue LIMIT 1').toArray().length > 0;
  }

  /** Messages waiting for the turn (THR-8 bounds them). */
  queuedCount(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM queue').one().n;
  }

  markToolStarted(toolCallId: string): void {
    this.sql.exec(
      'INSERT OR IGNORE INTO tool_journal (tool_call_id, started_at) VALUES (?, ?)',
      toolCallId,
      Date.now(),
    );
    this.journal().add(toolCallId);
  }

  clearToolStarted(toolCallId: string): void {
    this.sql.exec('DELETE FROM tool_journal WHERE tool_call_id = ?', toolCallId);
    this.journal().delete(toolCallId);
  }

  toolStarted(toolCallId: string): boolean {
    return this.journal().has(toolCallId);
  }

  private journal(): Set<string> {
    this.startedCalls ??= new Set(
      this.sql
        .exec<{ tool_call_id: string }>('SELECT tool_call_id FROM tool_journal')
        .toArray()
        .map((row) => row.tool_call_id),
    );
    return this.startedCalls;
  }

  interactions(toolCallId: string): Interaction[] {
    return this.waits.of(toolCallId);
  }

  openInteraction(input: Omit<Interaction, 'answered' | 'answer' | 'createdAt'>): Interaction {
    return this.waits.open(input);
  }

  recordAnswer(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    return this.waits.recordAnswer(toolCallId, kind, answer);
  }

  answerInteraction(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    return this.waits.answer(toolCallId, kind, answer);
  }

  openInteractions(): Interaction[] {
    return this.waits.unanswered();
  }

  handoff(agentId: string): void {
    (this.info as { agentId: string }).agentId = agentId;
    const record = this.meta.record();
    if (record) this.meta.set('thread', { ...record, agentId });
  }

  /** Records the thread's termination (state.terminate) in its record, where every reader sees it. */
  markTerminated(at: number): void {
    (this.info as { terminatedAt?: number | null }).terminatedAt = at;
    const record = this.meta.record();
    if (record) this.meta.set('thread', { ...record, terminatedAt: at });
  }

  /** Records a child thread; with `facts`, in the registry `state.children` shows, as running. */
  addChild(id: string, facts?: ChildFacts): void {
    this.childRows.add(id, facts);
  }

  /** The child threads, oldest first. */
  children(): string[] {
    return this.childRows.all();
  }

  childEntries(): ChildEntry[] {
    return this.childRows.entries();
  }

  setChildStatus(childId: string, status: string, fromTurn = false): boolean {
    return this.childRows.setStatus(childId, status, fromTurn);
  }
}
