/**
 * The waits of a thread's calls (`interactions`): an approval, an answer, a secret or a child thread
 * a call pauses on, and the answer once it comes. Payloads and answers are scrubbed of the thread's
 * secrets on the way in. Most threads never pause, yet every call asks: whether any wait was ever
 * stored is read once and then answered from memory.
 */
import type { SecretScrubber } from '../../../engine/secrets/index.js';
import type { Interaction, InteractionKind } from '../../../spec/index.js';
import { parseJson, type Row } from './message-rows.js';

function interactionFromRow(row: Row): Interaction {
  return {
    toolCallId: row.tool_call_id as string,
    toolName: row.tool_name as string,
    kind: row.kind as InteractionKind,
    payload: parseJson(row.payload),
    createdAt: row.created_at as number,
    answered: row.answered === 1,
    answer: parseJson(row.answer),
  };
}

export class InteractionRows {
  /** Whether any interaction was ever stored; null until read. */
  private any: boolean | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly scrubber: () => SecretScrubber,
  ) {}

  /** A thread being created has none. */
  startEmpty(): void {
    this.any = false;
  }

  /** After a transaction that threw: read again from what SQLite kept. */
  forget(): void {
    this.any = null;
  }

  private hasAny(): boolean {
    this.any ??= this.sql.exec('SELECT 1 FROM interactions LIMIT 1').toArray().length > 0;
    return this.any;
  }

  of(toolCallId: string): Interaction[] {
    if (!this.hasAny()) return [];
    return this.sql
      .exec('SELECT * FROM interactions WHERE tool_call_id = ? ORDER BY created_at', toolCallId)
      .toArray()
      .map(interactionFromRow);
  }

  open(input: Omit<Interaction, 'answered' | 'answer' | 'createdAt'>): Interaction {
    this.any = true;
    // An answer may have arrived first (a fast child thread): the wait then keeps it.
    this.sql.exec(
      `INSERT INTO interactions (tool_call_id, tool_name, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (tool_call_id, kind) DO UPDATE SET tool_name = excluded.tool_name, payload = excluded.payload`,
      input.toolCallId,
      input.toolName,
      input.kind,
      JSON.stringify(this.scrubber().value(input.payload ?? null)),
      Date.now(),
    );
    return this.of(input.toolCallId).find((i) => i.kind === input.kind) as Interaction;
  }

  /** An answer kept whether or not its wait is stored yet; false when the wait was already answered. */
  recordAnswer(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    this.any = true;
    const written = this.sql
      .exec(
        `INSERT INTO interactions (tool_call_id, tool_name, kind, payload, created_at, answered, answer)
         VALUES (?, '', ?, 'null', ?, 1, ?)
         ON CONFLICT (tool_call_id, kind) DO UPDATE SET answered = 1, answer = excluded.answer WHERE answered = 0
         RETURNING tool_call_id`,
        toolCallId,
        kind,
        Date.now(),
        JSON.stringify(this.scrubber().value(answer ?? null)),
      )
      .toArray();
    return written.length > 0;
  }

  /** Answers an open wait; false when there is none to answer. */
  answer(toolCallId: string, kind: InteractionKind, answer: unknown): boolean {
    if (!this.hasAny()) return false;
    const updated = this.sql
      .exec(
        `UPDATE interactions SET answered = 1, answer = ?
         WHERE tool_call_id = ? AND kind = ? AND answered = 0 RETURNING tool_call_id`,
        JSON.stringify(this.scrubber().value(answer ?? null)),
        toolCallId,
        kind,
      )
      .toArray();
    return updated.length > 0;
  }

  /** The waits not answered yet, oldest first. */
  unanswered(): Interaction[] {
    if (!this.hasAny()) return [];
    return this.sql
      .exec('SELECT * FROM interactions WHERE answered = 0 ORDER BY created_at, tool_call_id')
      .toArray()
      .map(interactionFromRow);
  }
}
