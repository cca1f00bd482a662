/**
 * `task` (LOCK-1, seed 003): hands a piece of work to a subagent. The subagent runs in a child
 * thread — a Durable Object of its own — and the call waits, without holding the parent's turn,
 * until the child's final answer (or its failure) comes back through the parent's stub (SUB-7).
 */
import { z } from 'zod';
import { defineInteractiveTool } from '../spec/define-interactive-tool.js';

const args = z.object({
  description: z.string().min(1).max(200).describe('A short name for the task, three to five words'),
  prompt: z.string().min(1).describe('The complete instructions for the subagent'),
  agent: z.string().default('').describe("The agent to run; empty for this thread's own agent"),
});

interface ChildAnswer {
  status?: 'success' | 'error';
  result?: string;
  error?: string;
  child_id?: string;
  cancelled?: boolean;
}

export const task = defineInteractiveTool({
  description: 'Run a task in a subagent thread and wait for its final answer',
  args,
  acpKind: 'other',
  // The subagent's own tools declare what it touches; the call itself reaches nothing.
  access: (input) => ({ subject: input.description }),
  interaction: {
    begin: async (state, input) => {
      const toolCallId = state.execution?.toolCallId;
      const child = await state.spawnChild({
        agent: input.agent || state.agentId,
        message: input.prompt,
        tags: [`task:${input.description}`],
        ...(toolCallId ? { reportTo: toolCallId } : {}),
      });
      return {
        kind: 'subagent',
        payload: { child_id: child.id, agent: input.agent || state.agentId, description: input.description },
      };
    },
    complete: async (_state, _input, raw) => {
      const answer = (raw ?? {}) as ChildAnswer;
      if (answer.cancelled) return { status: 'error', error: 'The task was stopped before the subagent finished.' };
      if (answer.status === 'success') return { status: 'success', result: answer.result ?? '' };
      return { status: 'error', error: answer.error ?? 'The subagent failed without a message.' };
    },
  },
});
