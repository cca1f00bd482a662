/**
 * The shapes of request bodies, queries, headers and path parameters (THR-5). The routes declare
 * them (createRoute), so the same schemas validate requests and make the OpenAPI document.
 */
import { z } from '@hono/zod-openapi';
import { ruleProblem } from '../../engine/permissions/index.js';
import { ON_BUSY_VALUES } from '../../spec/internal.js';

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
    shared: z
      .boolean()
      .default(false)
      .describe(
        "Visible to the starter's whole tenant (its members may read and post; its approvers answer approvals)",
      ),
    permissions: z
      .array(
        z
          .object({
            permission: z.string().min(1).max(256),
            pattern: z.string().max(4096).default('*'),
            action: z.enum(['allow', 'deny', 'ask']).default('ask'),
          })
          .strict()
          // A rule with a character nobody can see is refused, as it is in a manifest (name-characters.ts).
          .superRefine((rule, context) => {
            const problem = ruleProblem(rule);
            if (problem) context.addIssue({ code: 'custom', message: problem, path: ['pattern'] });
          }),
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
    context: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe(
        "Each tool's starting context, keyed by tool name: checked against the tool's contextSchema, and what the tool reads as state.context.local (CTX-1)",
      ),
    webhooks: z
      .array(z.object({ url: z.string().max(4096), events: z.array(z.string().max(64)).max(16) }).strict())
      .max(10)
      .optional()
      .describe(
        "Endpoints that hear only this thread's events (`invalid_url`, `invalid_events`); each one's id and secret are in the answer",
      ),
  })
  .strict()
  .openapi('CreateThreadBody');

const fileKind = z.enum(['image', 'file']).describe('`image` takes image types only; `file` any accepted type');

/** The parts a message's content may be made of (MSG-1); files are stored under /attachments/. */
export const ContentPart = z
  .union([
    z.object({ type: z.literal('text'), text: z.string().min(1).max(1_000_000) }).strict(),
    z
      .object({
        type: fileKind,
        data: z.string().min(1).describe('The file, base64 (standard alphabet, padded)'),
        mime_type: z.string().min(1).max(255).describe('Its type, one of createRuntime limits.messageFiles.mimeTypes'),
        name: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe('Its name; the file is stored as /attachments/<id>-<name>'),
      })
      .strict(),
    z
      .object({
        type: fileKind,
        path: z.string().min(1).max(4096).describe('A file already in this thread, referenced as it is (not copied)'),
      })
      .strict(),
    z
      .object({
        type: z.literal('image'),
        url: z.string().url().max(8192).describe("An image fetched once through the deployment's egress policy"),
      })
      .strict(),
  ])
  .openapi('ContentPart');

const onBusy = z
  .enum(ON_BUSY_VALUES as [string, ...string[]])
  .optional()
  .describe(
    "What the message does if a turn is running (or a wait is open): `enqueue` waits for the turn, `reject` is refused with 409 `thread_busy`, `interrupt` stops the turn at its next safe point and runs, `rollback` also removes what that turn added to the log and puts back its files. Default: the agent's `onBusy`, else `enqueue`; a value not listed is refused with 400 `invalid_on_busy`",
  );

/** A user message's text. */
export const MessageText = z.string().min(1).max(1_000_000);

/** A user message's content: its text, or parts of text and files (MSG-1). */
export const MessageContent = z
  .union([MessageText, z.array(ContentPart).min(1).max(100)])
  .describe(
    'The user message: its text, or a list of parts (text, image, file). Text parts are joined with a blank line; files are listed on the message as `attachments`, in order',
  );

export const PostMessageBody = z
  .object({ content: MessageContent, on_busy: onBusy })
  .strict()
  .openapi('PostMessageBody');

/** The same message as `multipart/form-data`, for files too large for JSON (MSG-2). */
export const PostMessageForm = z
  .object({
    content: z.string().max(1_000_000).optional().describe('The text of the message'),
    on_busy: onBusy,
    file: z
      .array(z.string().openapi({ format: 'binary' }))
      .optional()
      .describe(
        'Files, each a part named `file` with its file name and Content-Type; streamed to the thread as they arrive',
      ),
  })
  .openapi('PostMessageForm');

/** A message id as a fork, rewind or edit names it: any string, checked by the thread (404 `message_not_found`). */
const messageId = z.string().min(1).max(200);

/** `POST /api/threads/:id/fork` (FORK-2). */
export const ForkThreadBody = z
  .object({
    at: messageId.describe('The last message the fork keeps: a point outside any tool round'),
    agent: z.string().min(1).optional().describe("The agent the fork runs; default the source's"),
    variables: z
      .record(z.string(), z.string())
      .optional()
      .describe("Values that replace the source's variables in the fork"),
  })
  .strict()
  .openapi('ForkThreadBody');

/** `POST /api/threads/:id/rewind` (FORK-6). */
export const RewindThreadBody = z
  .object({
    to: messageId.describe('The last message kept: a point outside any tool round'),
    force: z
      .boolean()
      .default(false)
      .describe(
        'Rewind even over calls of tools that may have changed things outside the thread (neither readOnly nor idempotent): what they did is not undone',
      ),
  })
  .strict()
  .openapi('RewindThreadBody');

/** `POST /api/threads/:id/messages/:mid/edit` (FORK-3): the new message, in the same shape as a posted one. */
export const EditMessageBody = z
  .object({ content: PostMessageBody.shape.content, on_busy: PostMessageBody.shape.on_busy })
  .strict()
  .openapi('EditMessageBody');

/**
 * An integer of a query string or header. Documented by hand: zod-to-openapi tells a nullable
 * schema by parsing `null`, which `z.coerce.number()` turns into 0, so a minimum of 0 would be
 * documented as `[integer, null]`.
 */
function integer(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max).openapi({ type: 'integer', minimum: min, maximum: max });
}

/** The same with a default, documented too (a schema documented by hand loses the generated one). */
function integerOr(min: number, max: number, fallback: number) {
  return integer(min, max).default(fallback).openapi({ default: fallback });
}

export const ListThreadsQuery = z
  .object({
    agent: z.string().min(1).optional(),
    tag: tag.optional(),
    parent: z.string().min(1).optional(),
    forked_from: z.string().min(1).optional().describe("Only the forks of this thread (their source's id)"),
    status: z
      .enum(['idle', 'running', 'waiting', 'awaiting_hitl', 'error', 'terminated'])
      .optional()
      .describe(
        '`waiting`: threads that wait on a person: an approval, a question, a human-in-the-loop, client or secret answer, an MCP authorization (their status is `waiting` or `awaiting_hitl`); a thread that only waits for its subagents is not one. Any other value: threads with that status',
      ),
    cursor: z.string().min(1).optional(),
    limit: integerOr(1, 200, 50),
  })
  .strict();

/** `GET /api/threads` asked again: the page's `ETag` from the last answer, for a `304` when nothing changed. */
export const ListThreadsHeaders = z.object({
  'if-none-match': z
    .string()
    .max(4096, 'If-None-Match must be at most 4096 characters')
    .optional()
    .describe('The `ETag` of a page seen before: `304 Not Modified`, without a body, while the page is the same'),
});

export const ListMessagesQuery = z
  .object({
    after: integerOr(0, Number.MAX_SAFE_INTEGER, 0).describe('Messages after this seq'),
    limit: integerOr(1, 1000, 100),
    depth: integer(0, 64).optional().describe('Only messages this deep or shallower (0: the top level)'),
  })
  .strict();

const frameSeq = integer(0, Number.MAX_SAFE_INTEGER);

export const StreamQuery = z.object({
  after: integerOr(0, Number.MAX_SAFE_INTEGER, 0).describe('The last frame seq seen: frames after it are replayed'),
  token: z
    .string()
    .optional()
    .describe('The API key, for clients that cannot set headers (browsers); the Authorization header is preferred'),
});

/** `GET .../events` (THR-2): where to resume, as EventSource says it (`Last-Event-ID`) or as `?after=`. */
export const EventsQuery = StreamQuery.extend({
  after: frameSeq.optional().describe('The last frame seq seen; `Last-Event-ID` wins when both are sent'),
});

export const EventsHeaders = z.object({
  'last-event-id': frameSeq.optional().describe('The id of the last event received: the stream resumes after it'),
});

export const ThreadIdParam = z.uuid({ message: 'thread ids are UUIDs' });

export const ThreadParams = z.object({
  id: ThreadIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The thread id' }),
});

export const DeferredChildParams = ThreadParams.extend({
  requestId: z
    .string()
    .openapi({ param: { name: 'requestId', in: 'path' }, description: 'The request id of `subagent_env_required`' }),
});

/** Documentation only: the route takes the rest of the path, slashes included (files.ts). */
export const FileParams = ThreadParams.extend({
  path: z.string().openapi({
    param: { name: 'path', in: 'path' },
    description: 'A path in the thread filesystem; may contain slashes; a folder path (or none) lists the folder',
    example: 'docs/report.md',
  }),
});

export const PostMessageHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1, 'Idempotency-Key must be 1 to 256 characters')
    .max(256, 'Idempotency-Key must be 1 to 256 characters')
    .optional()
    .describe('A repeated key stores nothing new and answers the first message id (`replayed: true`)'),
});

const toolCallId = z.string().min(1).max(256).describe('The id of the waiting tool call (from `waiting_for`)');

export const AnswersBody = z
  .object({
    tool_call_id: toolCallId,
    answers: z
      .array(z.array(z.string().max(100_000)).max(100))
      .max(100)
      .describe('One list of answers per question'),
  })
  .strict()
  .openapi('AnswersBody');

export const ApprovalsBody = z
  .object({
    tool_call_id: toolCallId,
    approved: z.boolean(),
    /** With approved: remember the permission for the rest of the thread (PERM-2). */
    always: z.boolean().default(false).describe('Allow this kind of call for the rest of the thread'),
    reason: z.string().max(10_000).optional().describe('Told to the model when the call is rejected'),
  })
  .strict()
  .openapi('ApprovalsBody');

export const ToolResultsBody = z
  .object({
    tool_call_id: toolCallId,
    output: z.unknown().describe("The client tool's output, or the human's answer to a human-in-the-loop tool"),
  })
  .strict()
  .openapi('ToolResultsBody');

/** VAR-5: the credential a `store_secret` call asks for; sealed on arrival, never echoed or logged. */
export const SecretsBody = z
  .object({
    tool_call_id: toolCallId,
    value: z.string().min(1).max(65_536).describe('The credential, as the user entered it'),
  })
  .strict()
  .openapi('SecretsBody');

/** LOCK-4: which MCP server's authorization, waited for by a call of the thread, to start in a browser. */
export const McpAuthorizationBody = z
  .object({ server: z.string().min(1).max(256).describe('The MCP server the `mcp_auth` wait names') })
  .strict()
  .openapi('McpAuthorizationBody');

export const DeferredVariablesBody = z
  .object({
    variables: z.record(z.string(), z.string()).describe('Values for the variables the deferred child lacks'),
  })
  .strict()
  .openapi('DeferredVariablesBody');
