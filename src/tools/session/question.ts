/**
 * `question` (LOCK-1, seed 003): the one locked tool that pauses the run on a human. The thread waits
 * until `POST /api/threads/:id/answers` brings one list of answers per question; a headless thread
 * fails the call at once with a fixed message, so the model falls back to its best guess.
 */
import { z } from 'zod';
import { defineInteractiveTool } from '../../spec/index.js';

const args = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1).describe('The question to ask'),
        header: z.string().default('').describe('A short label shown above the question'),
        options: z
          .array(
            z.object({
              label: z.string().min(1).describe('The answer as it is returned'),
              description: z.string().default('').describe('What choosing it means'),
            }),
          )
          .default([])
          .describe('Choices to offer; empty for a free-text answer'),
        multi_select: z.boolean().default(false).describe('Whether several options may be chosen'),
      }),
    )
    .min(1)
    .describe('The questions, answered together'),
});

export const question = defineInteractiveTool({
  description: 'Ask the user one or more structured questions and wait for the answers',
  args,
  acpKind: 'other',
  interaction: {
    begin: async (_state, input) => ({ kind: 'question', payload: { questions: input.questions } }),
    complete: async (_state, _input, answer) => ({
      status: 'success',
      result: JSON.stringify({ answers: answer }),
    }),
  },
});
