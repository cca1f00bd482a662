/**
 * What a waiting call makes of its child thread's outcome (SUB-7): the answer with the files the child
 * produced (already copied into this thread, ATT-4), the failure, or the end of a wait at its cap
 * (WAIT-1) naming the child that still runs; never silence. Also the wait's cap and deadline.
 */
import type { AttachmentRef, ToolResult } from '../../spec/index.js';
import { MAX_TOOL_TIMEOUT_MS } from '../../spec/internal.js';

interface ChildAnswer {
  /** WAIT-1: the wait reached its cap before the child answered; the child runs on. */
  timed_out?: boolean;
  child_id?: string;
  waited_ms?: number;
  status?: 'success' | 'error';
  result?: string;
  error?: string;
  cancelled?: boolean;
  attachments?: AttachmentRef[];
}

export function childAnswerResult(raw: unknown, what: string): ToolResult {
  const answer = (raw ?? {}) as ChildAnswer;
  if (answer.timed_out) {
    const waited = Math.round((answer.waited_ms ?? 0) / 1000);
    return {
      status: 'error',
      error: `The ${what} stopped waiting after ${waited} s: subagent thread ${answer.child_id} is still running. It was left running; its answer will arrive as a message.`,
    };
  }
  if (answer.cancelled) return { status: 'error', error: `The ${what} was stopped before the subagent finished.` };
  if (answer.status === 'success') {
    return { status: 'success', result: answer.result ?? '', attachments: answer.attachments ?? [] };
  }
  return { status: 'error', error: answer.error ?? 'The subagent failed without a message.' };
}

/** The longest and default wait for a child (WAIT-1): the ceiling of any tool call, ten minutes. */
export const MAX_CHILD_WAIT_MS = MAX_TOOL_TIMEOUT_MS;

/** What a waiting call stores beside the child's id: its cap and when it ends (kept by the thread's alarm). */
export function waitCap(waitMs: number = MAX_CHILD_WAIT_MS): { wait_ms: number; deadline: number } {
  const capped = Math.min(Math.max(1, waitMs), MAX_CHILD_WAIT_MS);
  return { wait_ms: capped, deadline: Date.now() + capped };
}
