/**
 * The webhook routes' schemas (WH-2, WH-6, WH-7): registrations, changes, endpoints, deliveries and
 * their attempts, as the OpenAPI document and the generated client show them. URLs and event names
 * are plain strings here: the Tenant object checks them and answers `invalid_url` or
 * `invalid_events`, the codes that name the field.
 */
import { z } from '@hono/zod-openapi';

const url = z.string().max(4096).describe('Where deliveries are POSTed: https (http only for EGRESS_ALLOW_HOSTS)');
const events = z
  .array(z.string().max(64))
  .max(16)
  .describe(
    'The events it hears: thread.created, turn.completed, turn.failed, wait.opened, budget.exceeded, schedule.fired',
  );

export const CreateWebhookBody = z.object({ url, events }).strict().openapi('CreateWebhookBody');

export const UpdateWebhookBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    enabled: z
      .boolean()
      .optional()
      .describe('true re-enables an endpoint disabled after its failures (and forgets them); false disables it'),
  })
  .strict()
  .openapi('UpdateWebhookBody');

/** A thread's own endpoints, given in `POST /api/threads`: they hear only that thread. */
export const ThreadWebhooksField = z
  .array(z.object({ url, events }).strict())
  .max(10)
  .optional()
  .describe("Endpoints that hear only this thread's events; each one's id and secret are in the answer");

export const WebhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    scope: z
      .enum(['tenant', 'owner', 'thread'])
      .describe("Whose threads it hears: the tenant's (made by an admin), its maker's, or one thread's"),
    thread_id: z.string().nullable(),
    owner: z.string().nullable(),
    created_by: z.string(),
    created_at: z.number().describe('ms since the epoch'),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe('Why it was disabled (too many failed attempts in a row)'),
    consecutive_failures: z.number().int().describe('Failed attempts since the last success'),
  })
  .openapi('Webhook');

export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().describe('whsec_...: the signing secret, shown only in this answer'),
}).openapi('CreatedWebhook');

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) }).openapi('WebhookList');

const AttemptSchema = z
  .object({
    at: z.number().describe('ms since the epoch'),
    status_code: z.number().int().nullable().describe("The endpoint's answer; null when none came"),
    error: z.string().nullable().describe('Why the attempt failed: network error, refusal, redirect, status'),
    duration_ms: z.number(),
  })
  .openapi('WebhookAttempt');

export const DeliverySchema = z
  .object({
    id: z.string().describe('The webhook-id header: the same on every attempt and replay'),
    webhook_id: z.string(),
    type: z.string(),
    thread_id: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    created_at: z.number(),
    next_attempt_at: z.number().nullable(),
    last_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    attempts: z.array(AttemptSchema),
    payload: z.string().describe('The exact body sent: {"type","timestamp","data"}'),
  })
  .openapi('WebhookDelivery');

export const DeliveryPageSchema = z
  .object({
    deliveries: z.array(DeliverySchema),
    next_before: z.number().nullable().describe('Pass as `before` for the next, older page'),
  })
  .openapi('WebhookDeliveryPage');

export const WebhookParams = z.object({
  id: z
    .string()
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'The webhook id' }),
});

export const DeliveryParams = WebhookParams.extend({
  deliveryId: z
    .string()
    .max(128)
    .openapi({ param: { name: 'deliveryId', in: 'path' }, description: 'The delivery id (msg_...)' }),
});

export const DeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ type: 'integer', minimum: 1, maximum: 100 }),
  before: z.coerce.number().int().min(0).optional().openapi({ type: 'integer', minimum: 0 }),
});
