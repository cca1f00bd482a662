/**
 * `task` (LOCK-1, seed 003): hands a piece of work to a subagent. The subagent runs in a child
 * thread — a Durable Object of its own — and the call waits, without holding the parent's turn,
 * until the child's final answer (or its failure) comes back through the parent's stub (SUB-7).
 * Files cross by copy both ways (ATT-4): handed files land in the child's `/attachments/from-parent/`,
 * and what the child produced comes back as attachments valid in this thread. The wait is capped
 * (WAIT-1, `timeoutSeconds`, ten minutes at most); with `background` the call does not wait at all
 * and the answer arrives as a message (TASK-1).
 */
import { z } from 'zod';
import { defineInteractiveTool } from '../../spec/index.js';
import { childAnswerResult, MAX_CHILD_WAIT_MS, waitCap } from './child-answer.js';

const args = z.object({
  description: z.string().min(1).max(200).describe('A short name for the task, three to five words'),
  prompt: z.string().min(1).describe('The complete instructions for the subagent'),
  agent: z.string().default('').describe("The agent to run; empty for this thread's own agent"),
  files: z.array(z.string()).default([]).describe('Paths of files the subagent receives copies of'),
  background: z
    .boolean()
    .default(false)
    .describe("Answer at once with the subagent's thread id; its final answer arrives later as a message"),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_CHILD_WAIT_MS / 1000)
    .default(MAX_CHILD_WAIT_MS / 1000)
    .describe('Seconds to wait for the answer; past them the call fails and the subagent keeps running'),
});

export const task = defineInteractiveTool({
  description: 'Run a task in a subagent thread and wait for its final answer, or run it in the background',
  args,
  acpKind: 'other',
  // It reads the files it hands over; the subagent's own tools declare the rest.
  requires: { fs: { read: ['{workspace}/**'] } },
  access: (input) => ({ subject: input.description, read: input.files }),
  interaction: {
    begin: async (state, input) => {
      const toolCallId = state.execution?.toolCallId;
      const agent = input.agent || state.agentId;
      const child = await state.spawnChild({
        agent,
        message: input.prompt,
        tags: [`task:${input.description}`],
        files: input.files,
        // TASK-1: in the background the child's answer comes back as a message, like a non-blocking agent tool's.
        ...(input.background ? { notify: true } : toolCallId ? { reportTo: toolCallId } : {}),
      });
      if (input.background) {
        return {
          status: 'success',
          result: `Started ${agent} in the background in thread ${child.id}; its final answer will arrive as a message.`,
        };
      }
      return {
        kind: 'subagent',
        payload: {
          child_id: child.id,
          agent,
          description: input.description,
          ...waitCap(input.timeoutSeconds * 1000),
        },
      };
    },
    complete: async (_state, _input, raw) => childAnswerResult(raw, 'task'),
  },
});
