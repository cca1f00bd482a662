/**
 * The shapes of request bodies and queries (THR-5). The same schemas feed the OpenAPI document.
 */
import { z } from 'zod';

const tag = z.string().min(1).max(128);

export const CreateThreadBody = z
  .object({
    agent: z.string().min(1).describe('Name of the agent that runs the thread'),
    messages: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant', 'system']).default('user'),
          content: z.string().max(1_000_000),
        }),
      )
      .max(5000)
      .default([])
      .describe('Messages to start with; a trailing user message starts a turn'),
    variables: z.record(z.string(), z.string()).default({}).describe('Thread variable values (VAR-2)'),
    tags: z.array(tag).max(64).default([]),
    headless: z.boolean().default(false).describe('No human answers this thread: questions and asks fail at once'),
    permissions: z
      .array(
        z
          .object({
            permission: z.string().min(1).max(256),
            pattern: z.string().max(4096).default('*'),
            action: z.enum(['allow', 'deny', 'ask']).default('ask'),
          })
          .strict(),
      )
      .max(1000)
      .default([])
      .describe('Session-scope permission rules (PERM-1)'),
    budget: z
      .object({
        maxTokens: z.number().int().positive().optional().describe('Most tokens (input and output) the thread may use'),
        maxCost: z.number().positive().optional().describe('Most US dollars the thread may spend on models'),
      })
      .strict()
      .optional()
      .describe("The thread's model budget; the agent's own budget applies too, the tighter limit wins (THR-4)"),
  })
  .strict();

export const PostMessageBody = z
  .object({
    content: z.string().min(1).max(1_000_000).describe('The user message'),
  })
  .strict();

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const ListThreadsQuery = z
  .object({
    agent: z.string().min(1).optional(),
    tag: tag.optional(),
    parent: z.string().min(1).optional(),
    status: z.enum(['idle', 'running', 'error']).optional(),
    cursor: z.string().min(1).optional(),
    limit: integer(1, 200).default(50),
  })
  .strict();

export const ListMessagesQuery = z
  .object({
    after: integer(0, Number.MAX_SAFE_INTEGER).default(0),
    limit: integer(1, 1000).default(100),
    depth: integer(0, 64).optional(),
  })
  .strict();

export const StreamQuery = z.object({
  after: integer(0, Number.MAX_SAFE_INTEGER).default(0),
  token: z.string().optional(),
});

export const ThreadIdParam = z.uuid({ message: 'thread ids are UUIDs' });

const toolCallId = z.string().min(1).max(256).describe('The id of the waiting tool call (from `waiting_for`)');

export const AnswersBody = z
  .object({
    tool_call_id: toolCallId,
    answers: z
      .array(z.array(z.string().max(100_000)).max(100))
      .max(100)
      .describe('One list of answers per question'),
  })
  .strict();

export const ApprovalsBody = z
  .object({
    tool_call_id: toolCallId,
    approved: z.boolean(),
    /** With approved: remember the permission for the rest of the thread (PERM-2). */
    always: z.boolean().default(false).describe('Allow this kind of call for the rest of the thread'),
    reason: z.string().max(10_000).optional().describe('Told to the model when the call is rejected'),
  })
  .strict();

export const ToolResultsBody = z
  .object({
    tool_call_id: toolCallId,
    output: z.unknown().describe("The client tool's output, or the human's answer to a human-in-the-loop tool"),
  })
  .strict();

/** VAR-5: the credential a `store_secret` call asks for; sealed on arrival, never echoed or logged. */
export const SecretsBody = z
  .object({
    tool_call_id: toolCallId,
    value: z.string().min(1).max(65_536).describe('The credential, as the user entered it'),
  })
  .strict();

export const DeferredVariablesBody = z
  .object({
    variables: z.record(z.string(), z.string()).describe('Values for the variables the deferred child lacks'),
  })
  .strict();
