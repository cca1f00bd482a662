/**
 * What a waiting call makes of its child thread's outcome (SUB-7): the answer with the files the child
 * produced (already copied into this thread, ATT-4), or the failure, never silence.
 */
import type { AttachmentRef, ToolResult } from '../../spec/index.js';

interface ChildAnswer {
  status?: 'success' | 'error';
  result?: string;
  error?: string;
  cancelled?: boolean;
  attachments?: AttachmentRef[];
}

export function childAnswerResult(raw: unknown, what: string): ToolResult {
  const answer = (raw ?? {}) as ChildAnswer;
  if (answer.cancelled) return { status: 'error', error: `The ${what} was stopped before the subagent finished.` };
  if (answer.status === 'success') {
    return { status: 'success', result: answer.result ?? '', attachments: answer.attachments ?? [] };
  }
  return { status: 'error', error: answer.error ?? 'The subagent failed without a message.' };
}
