/**
 * The shapes of response bodies (THR-5): what each route answers, in the OpenAPI document under
 * `components/schemas`. Handlers are typed by them (the routes' declared responses), so a body that
 * drifts from its schema does not compile. Objects are open (extra fields allowed): a field added to
 * an answer is not a breaking change for a client.
 */
import { z } from '@hono/zod-openapi';

/**
 * Any JSON value, always there. Not `z.unknown()`: it accepts `undefined`, so zod-to-openapi would
 * document the property as optional (and generated clients type it so). Not a component either: a
 * component takes the description of whichever use the generator meets first.
 */
function present(description: string) {
  return z
    .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
    .describe(description);
}

const THREAD_STATUSES = ['idle', 'running', 'waiting', 'awaiting_hitl', 'error', 'terminated'] as const;
const INTERACTION_KINDS = ['question', 'approval', 'client_tool', 'hitl', 'subagent', 'secret', 'mcp_auth'] as const;

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().describe('A stable, machine-readable code such as `invalid_request` or `thread_not_found`'),
      message: z.string().describe('What was wrong, for a human'),
      details: z.unknown().optional().describe('More, by code: the issues of a body, the missing variable names'),
    }),
  })
  .openapi('Error');

export const ThreadStatusSchema = z.enum(THREAD_STATUSES).openapi('ThreadStatus');

export const AttachmentRefSchema = z
  .object({
    id: z.string(),
    type: z.literal('file'),
    path: z.string().describe('Where the file is in the thread filesystem'),
    name: z.string(),
    mimeType: z.string(),
    size: z.number().int().describe('Bytes'),
    width: z.number().optional(),
    height: z.number().optional(),
    description: z.string().optional(),
  })
  .openapi('AttachmentRef');

const EnvelopeMetadata = z.object({
  duration_ms: z.number(),
  progress: z.array(z.unknown()).optional().describe("A generator tool's progress events (KIND-2)"),
  truncated: z.boolean().optional(),
  output_path: z.string().optional().describe('Where the whole output was kept when it was truncated'),
});

/** Inline in Message: as a component, `.nullable()` there would put the null into the component. */
export const ToolEnvelopeSchema = z.union([
  z.object({
    type: z.literal('output'),
    data: present(
      "The tool's value: the value itself when the result is a JSON object or array, otherwise the text the model was shown; a cut result is { head, truncated: true, output_path }",
    ),
    metadata: EnvelopeMetadata,
  }),
  z.object({ type: z.literal('error'), error_text: z.string(), metadata: EnvelopeMetadata }),
]);

export const MessageSchema = z
  .object({
    id: z.string(),
    seq: z.number().int().describe('Position in the log, from 1; usable as `?after=`'),
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string().nullable(),
    name: z.string().nullable(),
    tool_calls: z
      .array(
        z.object({
          id: z.string(),
          type: z.literal('function'),
          function: z.object({ name: z.string(), arguments: z.string().describe('JSON text') }),
        }),
      )
      .nullable(),
    tool_call_id: z.string().nullable(),
    created_at: z.number().describe('Milliseconds since the epoch'),
    parent_id: z.string().nullable(),
    depth: z.number().int().describe('0 for the thread itself, more for nested prompts'),
    silent: z.boolean(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    tool_status: z.enum(['success', 'error']).nullable(),
    attachments: z.array(AttachmentRefSchema).nullable(),
    envelope: ToolEnvelopeSchema.nullable(),
  })
  .openapi('Message');

export const MessagePageSchema = z
  .object({
    messages: z.array(MessageSchema),
    next_after: z.number().int().nullable().describe('Pass as `after` for the next page; null at the end'),
  })
  .openapi('MessagePage');

/** A page of the log as the API answers it. */
export type MessagePageBody = z.output<typeof MessagePageSchema>;

export const UsageTotalsSchema = z
  .object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cached_tokens: z.number().describe('Input tokens served from a prompt cache (part of input_tokens)'),
    total_tokens: z.number(),
    cost_usd: z.number().describe('US dollars, for the steps whose model declares prices'),
    steps: z.number(),
    unpriced_steps: z.number().describe('Steps whose model declares no prices'),
  })
  .openapi('UsageTotals');

const Budget = z.object({ maxTokens: z.number().optional(), maxCost: z.number().optional() });

export const WaitingForSchema = z
  .object({
    tool_call_id: z.string(),
    name: z.string().describe('The tool that waits'),
    kind: z.enum(INTERACTION_KINDS),
    payload: present('What the call asks (the questions, the call to approve, ...)'),
    created_at: z.number(),
  })
  .openapi('WaitingFor');

export const ThreadDetailsSchema = z
  .object({
    id: z.string(),
    agent: z.string(),
    status: ThreadStatusSchema,
    created_at: z.number(),
    tags: z.array(z.string()),
    headless: z.boolean(),
    parent_id: z.string().nullable(),
    owner: z.string().nullable().describe('The subject that started the thread'),
    shared: z.boolean().describe("Visible to the owner's whole tenant, not only to the owner and the tenant's admins"),
    children: z.array(z.object({ id: z.string(), status: ThreadStatusSchema.optional() })),
    waiting_for: z.array(WaitingForSchema).describe('What a paused thread waits for, oldest first'),
    last_error: z.string().nullable(),
    index_error: z
      .string()
      .nullable()
      .describe(
        'Why the thread index refused this thread for good, so listings miss it; null while the index has it or is still being told',
      ),
    message_count: z.number().int(),
    last_frame_seq: z.number().int().describe('The newest stream frame: resume the stream after it'),
    usage: z.object({ thread: UsageTotalsSchema, turn: UsageTotalsSchema }),
    budget: Budget.nullable().describe("The budget in force (the agent's and the thread's, the tighter)"),
    storage: z
      .object({
        bytes: z.number().int().describe("What the thread's files take: uploads, tool files, attachments, copies"),
        quota_bytes: z.number().int().describe('The most they may take (createRuntime limits.threadStorageBytes)'),
      })
      .describe("The thread's files against its storage quota"),
    forked_from: z
      .object({
        thread_id: z.string(),
        message_id: z.string().nullable().describe('The last message copied; null when forked before the first'),
      })
      .nullable()
      .describe('The thread and message this thread was forked from; null when it is not a fork'),
  })
  .openapi('ThreadDetails');

export const ThreadListSchema = z
  .object({
    threads: z.array(
      z.object({
        id: z.string(),
        agent: z.string(),
        user_id: z.string().nullable().describe('The subject that started the thread'),
        shared: z.boolean(),
        parent_id: z.string().nullable(),
        forked_from: z.string().nullable().describe('The thread this one was forked from, or null'),
        status: ThreadStatusSchema,
        tags: z.array(z.string()),
        created_at: z.number(),
        updated_at: z.number(),
      }),
    ),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null at the end'),
  })
  .openapi('ThreadList');

export const PostMessageAnswerSchema = z
  .object({
    messageId: z.string(),
    queued: z.boolean().describe('The thread was busy: the message waits for the current step to end'),
    replayed: z.boolean().describe('The Idempotency-Key was seen before: nothing new was stored'),
  })
  .openapi('PostMessageAnswer');

export const DeferredChildViewSchema = z
  .object({
    request_id: z.string(),
    agent: z.string(),
    missing: z.array(z.string()).describe('The variables the child lacks'),
    created_at: z.number(),
  })
  .openapi('DeferredChildView');

export const BootedChildSchema = z.object({ child_id: z.string() }).openapi('BootedChild');

export const FolderListingSchema = z
  .object({
    path: z.string(),
    entries: z.array(
      z.object({
        name: z.string(),
        path: z.string(),
        kind: z.enum(['file', 'directory']),
        size: z.number().optional(),
      }),
    ),
  })
  .openapi('FolderListing');

export const McpStartLinkSchema = z
  .object({
    server: z.string(),
    start_url: z
      .string()
      .describe('Open it in the browser that will authorize: once, before `expires_at`; it sets the binding cookie'),
    expires_at: z.number().describe('Milliseconds since the epoch'),
  })
  .openapi('McpStartLink');

export const ServiceIndexSchema = z
  .object({ name: z.string(), agents: z.array(z.string()), openapi: z.string(), mcp: z.string() })
  .openapi('ServiceIndex');
