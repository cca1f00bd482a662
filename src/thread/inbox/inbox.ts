/**
 * How a message from outside reaches a thread (SUB-7): from a client over HTTP, or from its parent
 * (SUB-4 `subagent_message`). An idle thread appends it and runs; a busy one (a turn running, a
 * step waiting for an answer, calls held by the round limit) queues it, delivered between steps so
 * it never lands between a tool call and its result.
 */
import { hasHeldCalls, needsTurn } from '../../engine/conversation/index.js';
import type { PostMessageAnswer } from '../bindings/index.js';
import type { AnswerDesk } from './answers.js';

export interface IncomingMessage {
  content: string;
  metadata?: Record<string, unknown>;
  /** A client's Idempotency-Key: the same key twice stores the message once. */
  idempotencyKey?: string;
  /**
   * A message that waits for the current turn to end and gets its own (a parent's message to a
   * resumable subagent, SUB-4); a client's message joins the turn between its steps.
   */
  ownTurn?: boolean;
}

export async function acceptMessage(desk: AnswerDesk, incoming: IncomingMessage): Promise<PostMessageAnswer> {
  const { store, driver, ctx } = desk;
  const sql = ctx.storage.sql;
  if (incoming.idempotencyKey) {
    const seen = sql
      .exec<{ message_id: string }>('SELECT message_id FROM idempotency WHERE key = ?', incoming.idempotencyKey)
      .toArray()[0];
    if (seen) return { messageId: seen.message_id, queued: false, replayed: true };
  }
  const id = crypto.randomUUID();
  const metadata = incoming.ownTurn ? { ...incoming.metadata, after_turn: true } : incoming.metadata;
  const message = { id, role: 'user' as const, content: incoming.content, metadata };
  const log = store.messages();
  const queued =
    driver.busy ||
    store.openInteractions().length > 0 ||
    hasHeldCalls(log) ||
    (incoming.ownTurn === true && needsTurn(log));
  ctx.storage.transactionSync(() => {
    if (queued) store.enqueue(message);
    else desk.emit({ type: 'message', message: store.append({ ...message, metadata: message.metadata ?? null }) });
    if (incoming.idempotencyKey) {
      sql.exec('INSERT INTO idempotency (key, message_id) VALUES (?, ?)', incoming.idempotencyKey, id);
    }
  });
  // A wait for an answer resumes only with the answer; anything else can run now.
  if (store.openInteractions().length === 0) await driver.wake();
  return { messageId: id, queued, replayed: false };
}
