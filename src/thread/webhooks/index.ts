/**
 * Webhooks (WH-1..): the events a thread publishes, the Tenant object's registrations and durable
 * outbox, deliveries signed the Standard Webhooks way and sent through the egress policy, retried on
 * a schedule from the Tenant object's alarm. `publishEvent` is the door every publisher uses.
 */
export {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from './event-types.js';
export { forgetInterest, INTEREST_TTL_MS } from './interest-cache.js';
export { publishEvent } from './publish-event.js';
