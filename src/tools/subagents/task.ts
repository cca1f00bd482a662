/**
 * `task` (LOCK-1, seed 003): hands a piece of work to a subagent. The subagent runs in a child
 * thread — a Durable Object of its own — and the call waits, without holding the parent's turn,
 * until the child's final answer (or its failure) comes back through the parent's stub (SUB-7).
 * Files cross by copy both ways (ATT-4): handed files land in the child's `/attachments/from-parent/`,
 * and what the child produced comes back as attachments valid in this thread.
 */
import { z } from 'zod';
import { defineInteractiveTool } from '../../spec/index.js';
import { childAnswerResult } from './child-answer.js';

const args = z.object({
  description: z.string().min(1).max(200).describe('A short name for the task, three to five words'),
  prompt: z.string().min(1).describe('The complete instructions for the subagent'),
  agent: z.string().default('').describe("The agent to run; empty for this thread's own agent"),
  files: z.array(z.string()).default([]).describe('Paths of files the subagent receives copies of'),
});

export const task = defineInteractiveTool({
  description: 'Run a task in a subagent thread and wait for its final answer',
  args,
  acpKind: 'other',
  // It reads the files it hands over; the subagent's own tools declare the rest.
  requires: { fs: { read: ['{workspace}/**'] } },
  access: (input) => ({ subject: input.description, read: input.files }),
  interaction: {
    begin: async (state, input) => {
      const toolCallId = state.execution?.toolCallId;
      const child = await state.spawnChild({
        agent: input.agent || state.agentId,
        message: input.prompt,
        tags: [`task:${input.description}`],
        files: input.files,
        ...(toolCallId ? { reportTo: toolCallId } : {}),
      });
      return {
        kind: 'subagent',
        payload: { child_id: child.id, agent: input.agent || state.agentId, description: input.description },
      };
    },
    complete: async (_state, _input, raw) => childAnswerResult(raw, 'task'),
  },
});
