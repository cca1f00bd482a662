/**
 * Which double-texting policy a message posted to a busy thread follows (`on_busy`): the message's
 * own, else its agent's (`defineAgent({ onBusy })`), else `enqueue`. A parent's message to its
 * resumable child always waits its turn: the policy is a choice of the person or schedule posting.
 */
import type { OnBusy } from '../../spec/index.js';
import type { ApiError } from '../bindings/index.js';
import type { AnswerDesk } from './answers.js';

export function busyPolicy(desk: AnswerDesk, incoming: { onBusy?: OnBusy; ownTurn?: boolean }): OnBusy {
  if (incoming.ownTurn === true) return 'enqueue';
  return incoming.onBusy ?? desk.registry.agent(desk.store.info.agentId)?.onBusy ?? 'enqueue';
}

/** `reject`: the thread is busy, and nothing of the message was stored. */
export function threadBusy(threadId: string): ApiError {
  return {
    status: 409,
    code: 'thread_busy',
    message: `thread ${threadId} is busy (a turn is running, waits for an answer or holds calls) and the message asked to be refused then (on_busy "reject"); nothing was stored`,
  };
}
