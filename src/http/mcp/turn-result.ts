/**
 * What an agent tool answers once its turn is followed (THR-5): the agent's final text and the
 * thread id, as text and as `structuredContent` `{ thread_id, status, answer, ... }`. A thread that
 * waits for a human is an answer, not an error: it says what it waits for and where the answer goes.
 * A turn that failed, hit a limit or was stopped is an error result that says so.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ThreadDetails } from '../../thread/bindings/index.js';
import type { TurnEnd } from './turn-follower.js';

export const AgentAnswer = z.object({
  thread_id: z.string().describe('The thread: pass it as thread_id to continue, or to read_thread'),
  status: z
    .enum(['idle', 'running', 'waiting', 'awaiting_hitl', 'error', 'terminated'])
    .describe("The thread's status"),
  answer: z.string().describe("The agent's final text in this turn"),
  reason: z.string().optional().describe('Why the turn ended, when not by answering'),
  waiting_for: z
    .array(
      z.object({
        tool_call_id: z.string(),
        name: z.string(),
        kind: z.string(),
        payload: z.unknown(),
        created_at: z.number(),
      }),
    )
    .optional()
    .describe('What the thread waits for, when it waits'),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  queued: z.boolean().optional().describe('The message waits in the queue until the thread is answered'),
});
export type AgentAnswer = z.infer<typeof AgentAnswer>;

/** Where the HTTP API takes the answer to each kind of wait. */
const ANSWER_ROUTES: Record<string, string> = {
  question: 'answers { tool_call_id, answers }',
  approval: 'approvals { tool_call_id, approved }',
  client_tool: 'tool-results { tool_call_id, output }',
  hitl: 'tool-results { tool_call_id, output }',
  secret: 'secrets { tool_call_id, value }',
};

function result(report: AgentAnswer, text: string, isError = false): CallToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [
      { type: 'text', text },
      { type: 'text', text: `thread_id: ${report.thread_id}` },
    ],
    structuredContent: report,
  };
}

/** One line per wait: what it asks, and the route that answers it. */
export function describeWaits(threadId: string, waits: ThreadDetails['waiting_for']): string {
  return waits
    .map((wait) => {
      const route = ANSWER_ROUTES[wait.kind];
      const answer = route ? ` Answer with POST /api/threads/${threadId}/${route}.` : '';
      return `- ${wait.kind} from ${wait.name} (tool_call_id ${wait.tool_call_id}): ${waitText(wait.payload)}.${answer}`;
    })
    .join('\n');
}

function waitText(payload: unknown): string {
  const questions = (payload as { questions?: unknown } | null)?.questions;
  if (Array.isArray(questions)) {
    return questions
      .map((entry) => {
        const { question, options } = entry as { question?: unknown; options?: { label?: unknown }[] };
        const labels = Array.isArray(options) ? options.map((option) => String(option.label)) : [];
        return `${String(question)}${labels.length > 0 ? ` [${labels.join(' | ')}]` : ''}`;
      })
      .join('; ');
  }
  const text = JSON.stringify(payload ?? null);
  return text.length > 2000 ? `${text.slice(0, 2000)}...` : text;
}

/**
 * The result of a followed turn. `details` is the thread after the turn, read when it waits (its
 * `waiting_for`); `cancelled` is whether this call's client cancelled it.
 */
export function turnResult(
  threadId: string,
  end: TurnEnd,
  details: ThreadDetails | null,
  cancelled: boolean,
  waitSeconds: number,
): CallToolResult {
  if (end.kind === 'gone') {
    return {
      isError: true,
      content: [{ type: 'text', text: `thread ${threadId} was deleted before its turn ended` }],
    };
  }
  if (end.kind === 'still_running') {
    const why =
      end.why === 'deadline'
        ? `still running after ${waitSeconds} s, the longest this tool waits`
        : 'still running, but its stream closed repeatedly';
    return result(
      { thread_id: threadId, status: 'running', answer: end.answer, reason: end.why },
      `The turn is ${why}. Its answer will be in read_thread { "thread_id": "${threadId}" }; list_threads shows when it is idle.`,
    );
  }
  const report: AgentAnswer = {
    thread_id: threadId,
    status: end.status,
    answer: end.answer,
    ...(end.reason ? { reason: end.reason } : {}),
    ...(end.error ? { error: end.error } : {}),
  };
  if (end.status === 'waiting' || end.status === 'awaiting_hitl') {
    const waits = details?.waiting_for ?? [];
    const queued = end.delivered ? '' : ' The message is queued: the thread reads it once these are answered.';
    return result(
      { ...report, waiting_for: waits, ...(end.delivered ? {} : { queued: true }) },
      `${end.answer ? `${end.answer}\n\n` : ''}The thread waits for a human:\n${describeWaits(threadId, waits)}${queued}`,
    );
  }
  if (end.reason === 'stopped') {
    const why = cancelled ? 'the call was cancelled, so the turn was stopped' : 'the turn was stopped before it ended';
    return result(report, why, true);
  }
  if (end.error) {
    const what = end.status === 'error' ? 'the turn failed' : 'the turn hit a limit';
    return result(report, `${what} (${end.error.code}): ${end.error.message}`, true);
  }
  return result(report, end.answer || '(the agent ended its turn without text)');
}
