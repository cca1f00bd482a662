/**
 * How a message from outside reaches a thread (SUB-7): from a client over HTTP, or from its parent
 * (SUB-4 `subagent_message`). An idle thread appends it and runs; a busy one (a turn running, a
 * step waiting for an answer, calls held by the round limit) queues it, delivered between steps so
 * it never lands between a tool call and its result. The queue is bounded (THR-8): past the bound a
 * message is refused with 429 `inbox_full`, and nothing of it is stored.
 */
import { hasHeldCalls, needsTurn } from '../../engine/conversation/index.js';
import type { AttachmentRef, OnBusy } from '../../spec/index.js';
import { type ApiError, fail, ok, type PostMessageAnswer, type RpcResult } from '../bindings/index.js';
import { IdempotencyRows } from '../storage/index.js';
import { ThreadTraces } from '../turn/index.js';
import type { AnswerDesk } from './answers.js';
import { busyPolicy, threadBusy } from './busy-policy.js';

export interface IncomingMessage {
  content: string;
  /** Files the message carries (MSG-4), stored already, in the order the sender gave them. */
  attachments?: AttachmentRef[];
  /**
   * What the sender's files were, for the Idempotency-Key's fingerprint: each stored file is under a
   * fresh path, so its name as sent, type and size (or the path a `path` part named) tell a retry
   * from another message.
   */
  filesIdentity?: unknown[];
  metadata?: Record<string, unknown>;
  /**
   * A client's Idempotency-Key: the same key with the same message stores it once and answers the
   * retry as replayed; the same key with another message is refused (422), never silently dropped.
   */
  idempotencyKey?: string;
  /**
   * A message that waits for the current turn to end and gets its own (a parent's message to a
   * resumable subagent, SUB-4); a client's message joins the turn between its steps.
   */
  ownTurn?: boolean;
  /**
   * What the message does if the thread is busy (double-texting): wait for the turn (`enqueue`), be
   * refused (`reject`), or stop the turn at its next safe point and run (`interrupt`, `rollback`).
   * Absent, the agent's `onBusy`.
   */
  onBusy?: OnBusy;
  /**
   * Runs inside the transaction that stores the message: a schedule records the tick it fired there,
   * so the message and the record are kept together or not at all. Throwing undoes the message.
   */
  inTransaction?: () => void;
  /** The sender's W3C trace context: the turn the message starts continues it (TRACE-2). */
  traceparent?: string;
}

/** What a key's message was: its content and metadata, hashed (the store keeps no second copy). */
async function fingerprint(incoming: IncomingMessage): Promise<string> {
  const files = incoming.filesIdentity?.length ? [incoming.filesIdentity] : [];
  const text = JSON.stringify([incoming.content, incoming.metadata ?? null, ...files]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** How long a refused sender is asked to wait: the queue empties into the turn at its next step. */
export const INBOX_RETRY_AFTER_S = 5;

function inboxFull(bound: number): ApiError {
  return {
    status: 429,
    code: 'inbox_full',
    message: `${bound} messages already wait for this thread's running turn; send again once it has taken them`,
    retryAfter: INBOX_RETRY_AFTER_S,
  };
}

export async function acceptMessage(
  desk: AnswerDesk,
  incoming: IncomingMessage,
): Promise<RpcResult<PostMessageAnswer>> {
  const { store, driver, ctx } = desk;
  // A terminated thread takes nothing more (state.terminate): nothing is stored, nothing runs.
  const terminatedAt = store.info.terminatedAt;
  if (typeof terminatedAt === 'number') {
    return fail({
      status: 409,
      code: 'thread_terminated',
      message: `thread ${store.info.id} was terminated at ${new Date(terminatedAt).toISOString()} and takes no more messages`,
    });
  }
  const keys = new IdempotencyRows(ctx.storage);
  // Hashed before the check: from the check to the insert nothing awaits, so two requests with one
  // key cannot both pass it.
  const hash = incoming.idempotencyKey ? await fingerprint(incoming) : null;
  if (incoming.idempotencyKey) {
    const seen = keys.find(incoming.idempotencyKey);
    if (seen && seen.bodyHash !== null && seen.bodyHash !== hash) {
      return fail({
        status: 422,
        code: 'idempotency_key_reused',
        message: `the Idempotency-Key "${incoming.idempotencyKey}" was used for another message (${seen.messageId}); use a new key for a new message`,
      });
    }
    if (seen) return ok({ messageId: seen.messageId, queued: false, replayed: true });
  }
  const id = crypto.randomUUID();
  const metadata = incoming.ownTurn ? { ...incoming.metadata, after_turn: true } : incoming.metadata;
  const attachments = incoming.attachments?.length ? { attachments: incoming.attachments } : {};
  const message = { id, role: 'user' as const, content: incoming.content, metadata, ...attachments };
  const log = store.messages();
  const queued =
    driver.busy ||
    store.openInteractions().length > 0 ||
    hasHeldCalls(log) ||
    (incoming.ownTurn === true && needsTurn(log));
  // THR-8: checked and stored with nothing awaited between, so concurrent posts cannot pass together.
  const bound = desk.registry.limits.inboxMessages;
  if (queued && store.queuedCount() >= bound) return fail(inboxFull(bound));
  const policy = busyPolicy(desk, incoming);
  if (queued && policy === 'reject') return fail(threadBusy(store.info.id));
  store.transaction(ctx.storage, () => {
    // First: a refusal there leaves nothing stored and nothing sent.
    incoming.inTransaction?.();
    ThreadTraces.remember(store, incoming.traceparent);
    if (queued) store.enqueue(message);
    else desk.emit({ type: 'message', message: store.append({ ...message, metadata: message.metadata ?? null }) });
    if (incoming.idempotencyKey) keys.record(incoming.idempotencyKey, id, hash);
  });
  // The turn stops at its next safe point (now, if it waits or holds calls), then the message runs.
  if (queued && (policy === 'interrupt' || policy === 'rollback')) await driver.interrupt(policy);
  // A wait for an answer resumes only with the answer; anything else can run now.
  if (store.openInteractions().length === 0) await driver.wake();
  return ok({ messageId: id, queued, replayed: false });
}
