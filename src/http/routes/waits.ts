/**
 * The inbox of waits: `GET /api/waits` lists every open wait (a question, an approval, a client
 * tool, a secret, an MCP authorization, a subagent) of the threads the caller sees, by the rule the
 * thread list applies, oldest first, filtered by kind and agent and paginated. A wait is answered
 * with the thread's own answer routes; it leaves the list once its thread's status moves on.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { InteractionKind } from '../../spec/index.js';
import { decodeWaitCursor, ThreadIndex } from '../../thread/bindings/index.js';
import { AUTH_FAILURES, failure, HttpError, json, routeApp, WaitingForSchema } from '../contract/index.js';

const KINDS = WaitingForSchema.shape.kind.options;

/** Kinds from `?kind=a&kind=b` or `?kind=a,b`; the first word that names no kind, or null. */
function kindsOf(raw: string | string[] | undefined): { kinds: InteractionKind[]; unknown: string | null } {
  const words = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) => value.split(','));
  const kinds: InteractionKind[] = [];
  for (const word of words) {
    const kind = KINDS.find((known) => known === word.trim());
    if (!kind) return { kinds: [], unknown: word };
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return { kinds, unknown: null };
}

const ListWaitsQuery = z
  .object({
    kind: z
      .union([z.string().max(256), z.array(z.string().max(256)).max(16)])
      .optional()
      .superRefine((raw, context) => {
        const { unknown } = kindsOf(raw);
        if (unknown !== null) {
          context.addIssue({ code: 'custom', message: `kind must be one of ${KINDS.join(', ')}; got ${unknown}` });
        }
      })
      .describe(`Only waits of these kinds: repeat the parameter or separate with commas (${KINDS.join(', ')})`),
    agent: z.string().min(1).max(256).optional().describe("Only waits of this agent's threads"),
    cursor: z.string().min(1).max(4096).optional().describe('`next_cursor` of the previous page'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(200)
      .default(50)
      .openapi({ type: 'integer', minimum: 1, maximum: 200, default: 50 }),
  })
  .strict();

const OpenWaitSchema = WaitingForSchema.extend({
  thread_id: z.string().describe('The thread that waits: answer with its answer routes'),
  agent: z.string().describe("The thread's agent"),
  payload_omitted: z
    .boolean()
    .describe(
      "True when the payload is too large to list (over 64 KiB): `payload` is null, read it from the thread's `waiting_for`",
    ),
}).openapi('OpenWait');

const WaitListSchema = z
  .object({
    waits: z.array(OpenWaitSchema).describe('Open waits, the longest waiting first'),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null at the end'),
  })
  .openapi('WaitList');

const listWaits = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listWaits',
  tags: ['threads'],
  summary: 'The open waits of your threads (questions, approvals, ...), the longest waiting first',
  description:
    "Every call that waits for an answer in a thread you see (your own, the shared ones, and as an admin the tenant's), with its thread, agent, tool, payload (as the thread's `waiting_for` shows it) and since when. Answer one with the thread's answer routes (`/api/threads/{id}/answers`, `/approvals`, `/tool-results`, `/secrets`).",
  request: { query: ListWaitsQuery },
  responses: {
    200: json(WaitListSchema, 'A page of open waits'),
    400: failure(
      '`invalid_request`: an unknown kind, an empty agent, a limit out of range or a cursor not given by this listing',
    ),
    ...AUTH_FAILURES,
  },
});

export function waitRoutes() {
  const app = routeApp();

  app.openapi(listWaits, async (c) => {
    const query = c.req.valid('query');
    if (query.cursor !== undefined && !decodeWaitCursor(query.cursor)) {
      throw new HttpError({
        status: 400,
        code: 'invalid_request',
        message: 'invalid query: cursor is not one this listing gave',
      });
    }
    const page = await new ThreadIndex(c.env.DB).listWaits(c.get('principal'), {
      kinds: kindsOf(query.kind).kinds,
      agent: query.agent,
      cursor: query.cursor,
      limit: query.limit,
    });
    return c.json(page, 200);
  });

  return app;
}
