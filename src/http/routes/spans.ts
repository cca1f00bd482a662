/**
 * A thread's spans (TRACE-5): `GET /api/threads/:id/spans` returns what the thread recorded of its
 * turns (the turn, each model step, tool call, MCP request, child thread start, hook, compaction
 * and retry), one trace's with `trace_id`, else the newest `traces` traces'. The inspector draws
 * each turn's timeline from them; no collector is needed. Reading takes the thread's read access.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { FinishedSpan } from '../../engine/tracing/index.js';
import { type RpcResult, threadStub } from '../../thread/bindings/index.js';
import { AUTH_FAILURES, failure, json, routeApp, THREAD_NOT_FOUND, ThreadParams, unwrap } from '../contract/index.js';

const Attribute = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

const SpanSchema = z
  .object({
    trace_id: z.string().openapi({ description: '32 hex digits' }),
    span_id: z.string().openapi({ description: '16 hex digits' }),
    parent_span_id: z.string().nullable().openapi({
      description: "The parent span: in this thread, the caller's, or the parent thread's tool call",
    }),
    name: z.string().openapi({ example: 'execute_tool search_knowledge_base' }),
    kind: z.enum(['internal', 'client', 'server']),
    start_ms: z.number().openapi({ description: 'When it started, in ms since the epoch' }),
    end_ms: z.number(),
    status: z.enum(['unset', 'ok', 'error']),
    status_message: z.string().optional().openapi({ description: 'Why it failed, scrubbed of secrets' }),
    attributes: z.record(z.string(), Attribute).openapi({
      description: "OpenTelemetry GenAI attributes (`gen_ai.*`) and the runtime's (`standard_agents.*`)",
    }),
    events: z.array(z.object({ name: z.string(), time_ms: z.number(), attributes: z.record(z.string(), Attribute) })),
  })
  .openapi('Span');

const SpanListSchema = z.object({ spans: z.array(SpanSchema) }).openapi('SpanList', {
  description: 'Spans in the order they started',
});

const SpanQuery = z.object({
  trace_id: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'a trace id is 32 lowercase hex digits')
    .optional()
    .openapi({ description: "One trace's spans (a turn, with its children's when they are this thread's)" }),
  traces: z.coerce.number().int().min(1).max(200).default(20).openapi({
    description: 'Without `trace_id`: how many of the newest traces',
  }),
});

const listThreadSpans = createRoute({
  method: 'get',
  path: '/{id}/spans',
  operationId: 'listThreadSpans',
  tags: ['threads'],
  summary: "The thread's recorded spans: what each turn did, and how long each part took",
  request: { params: ThreadParams, query: SpanQuery },
  responses: {
    200: json(SpanListSchema, 'The spans'),
    400: failure('`invalid_request`: a malformed `trace_id` or `traces`'),
    403: failure('`forbidden`: this role may not read the thread'),
    404: THREAD_NOT_FOUND,
    ...AUTH_FAILURES,
  },
});

function wireSpan(span: FinishedSpan) {
  return {
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    start_ms: span.startMs,
    end_ms: span.endMs,
    status: span.status,
    ...(span.statusMessage !== undefined ? { status_message: span.statusMessage } : {}),
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, time_ms: event.timeMs, attributes: event.attributes })),
  };
}

export function spanRoutes() {
  const app = routeApp();
  app.openapi(listThreadSpans, async (c) => {
    const { id } = c.req.valid('param');
    const { trace_id: traceId, traces } = c.req.valid('query');
    const listed = await threadStub(c.env, id).listSpans(c.get('principal'), id, {
      ...(traceId ? { traceId } : {}),
      traces,
    });
    const { spans } = unwrap(listed as RpcResult<{ spans: FinishedSpan[] }>);
    return c.json({ spans: spans.map(wireSpan) }, 200);
  });
  return app;
}
