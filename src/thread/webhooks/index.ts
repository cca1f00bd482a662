/**
 * Webhooks (WH-1..WH-8): the events a thread publishes (`publishEvent`, the door every publisher
 * uses, with the isolate's few-seconds copy of which events the tenant's endpoints hear), and the
 * Tenant object's side: registered endpoints, the durable outbox, deliveries signed the Standard
 * Webhooks way and sent through the egress policy, retried on a schedule from the object's alarm.
 */
export {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from './event-types.js';
export { forgetInterest, INTEREST_TTL_MS } from './interest-cache.js';
export { publishEvent } from './publish-event.js';
export { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.js';
export { ATTEMPT_TIMEOUT_MS } from './send-attempt.js';
export { TenantWebhooks } from './tenant-webhooks.js';
export { publishThreadCreated, publishTurnEnd, type ThreadEventSource } from './thread-events.js';
export { webhookInputProblem } from './webhook-input.js';
export { DISABLE_AFTER } from './webhook-outbox.js';
export { MAX_WEBHOOKS } from './webhook-registry.js';
export { webhookEgress } from './webhook-url.js';
