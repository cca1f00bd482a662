/**
 * Webhooks: endpoints that receive a tenant's (an admin's), one's own threads' or one thread's events,
 * signed the Standard Webhooks way. Registering answers the signing secret, shown only then; each
 * endpoint lists its deliveries with every attempt, and a delivery can be sent again.
 */
import { expectOk, type TypedApi } from './http.js';
import type {
  CreatedWebhook,
  CreateWebhookBody,
  ListWebhookDeliveriesQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
} from './resources.js';

export interface WebhookCalls {
  /** `POST /api/webhooks` (201): the endpoint and its `secret` (`whsec_...`), never shown again. ApiError 400 `invalid_url` or `invalid_events`. */
  create(body: CreateWebhookBody): Promise<CreatedWebhook>;
  /** `GET /api/webhooks`: your endpoints (an admin: the tenant's), oldest first. */
  list(): Promise<Webhook[]>;
  get(id: string): Promise<Webhook>;
  /** `PATCH /api/webhooks/:id`: url, events, or `enabled` (true re-enables a disabled endpoint). */
  update(id: string, body: UpdateWebhookBody): Promise<Webhook>;
  /** `DELETE /api/webhooks/:id`: the endpoint and its deliveries. */
  delete(id: string): Promise<void>;
  /** `GET /api/webhooks/:id/deliveries`: newest first, each with its attempts; `next_before` pages on. */
  deliveries(id: string, query?: ListWebhookDeliveriesQuery): Promise<WebhookDeliveryPage>;
  /** `POST .../deliveries/:deliveryId/replay`: sent again now with the same id and body. */
  replay(id: string, deliveryId: string): Promise<WebhookDelivery>;
}

export function webhookCalls(api: TypedApi): WebhookCalls {
  const path = (id: string) => ({ path: { id } });
  return {
    create: (body) => expectOk(api.POST('/api/webhooks', { body })),
    list: async () => (await expectOk(api.GET('/api/webhooks'))).webhooks,
    get: (id) => expectOk(api.GET('/api/webhooks/{id}', { params: path(id) })),
    update: (id, body) => expectOk(api.PATCH('/api/webhooks/{id}', { params: path(id), body })),
    delete: async (id) => {
      await expectOk(api.DELETE('/api/webhooks/{id}', { params: path(id) }));
    },
    deliveries: (id, query) => expectOk(api.GET('/api/webhooks/{id}/deliveries', { params: { ...path(id), query } })),
    replay: (id, deliveryId) =>
      expectOk(api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/replay', { params: { path: { id, deliveryId } } })),
  };
}
