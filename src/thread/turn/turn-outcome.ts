/**
 * What the end of a turn does to a thread: its new status, and for a failure or a limit, the error
 * kept as `last_error` and streamed as an `error` frame.
 */
import type { TurnOutcome } from '../../engine/conversation/index.js';
import type { Interaction, ThreadStatus } from '../../spec/index.js';

export interface OutcomeEffect {
  status: ThreadStatus;
  reason?: string;
  error?: { code: string; message: string };
}

export function outcomeEffect(outcome: TurnOutcome, waits: readonly Interaction[]): OutcomeEffect {
  switch (outcome.kind) {
    case 'failed':
      return {
        status: 'error',
        reason: 'failed',
        error: { code: outcome.code ?? 'turn_failed', message: outcome.message },
      };
    case 'limit':
      return {
        status: 'idle',
        reason: 'limit',
        error: { code: outcome.code ?? 'step_limit', message: outcome.message },
      };
    case 'waiting':
      // KIND-4: a human-in-the-loop wait has its own status.
      return { status: waits.some((wait) => wait.kind === 'hitl') ? 'awaiting_hitl' : 'waiting' };
    case 'stopped':
      return { status: 'idle', reason: 'stopped' };
    case 'done':
      return { status: 'idle', reason: outcome.reason };
  }
}
