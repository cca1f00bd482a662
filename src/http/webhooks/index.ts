/**
 * Webhooks over HTTP (WH-2, WH-6, WH-7): `/api/webhooks` (endpoints, their deliveries, replays) and
 * a thread's own endpoints given when it is started. The outbox and deliveries are thread/webhooks'.
 */
export {
  CreatedThreadSchema,
  checkThreadWebhooks,
  forgetThreadWebhooks,
  registerThreadWebhooks,
  type ThreadWebhookInput,
} from './thread-webhooks.js';
export { webhookRoutes } from './webhook-routes.js';
