/**
 * What the history routes answer (FORK-2, FORK-3, FORK-6): the fork or the rewound thread, with what
 * a fork left behind and what a rewind removed and put back.
 */
import { z } from '@hono/zod-openapi';
import { ThreadDetailsSchema } from '../contract/index.js';

const NotCopiedSchema = z
  .object({
    waits: z
      .array(z.string())
      .describe("Tool call ids of the source's open waits in the copied log: the fork does not wait for them"),
    children: z
      .array(z.string())
      .describe(
        'Child threads the source had started by the point: their answers are in the copied log, the threads stay with the source',
      ),
  })
  .openapi('NotCopied');

export const ForkAnswerSchema = z
  .object({ thread: ThreadDetailsSchema, not_copied: NotCopiedSchema })
  .openapi('ForkAnswer');

export const EditAnswerSchema = z
  .object({
    thread: ThreadDetailsSchema,
    message_id: z.string().describe('The edited message, as posted in the fork'),
    not_copied: NotCopiedSchema,
  })
  .openapi('EditAnswer');

export const RewindAnswerSchema = z
  .object({
    thread: ThreadDetailsSchema,
    removed_messages: z.number().int().describe('Messages removed from the log'),
    restored_files: z.number().int().describe('Files put back as they were (written again, or deleted)'),
  })
  .openapi('RewindAnswer');
