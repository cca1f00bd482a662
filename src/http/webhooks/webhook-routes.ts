/**
 * `/api/webhooks` (WH-2, WH-6, WH-7): register an endpoint (its secret shown once), list, read,
 * change (url, events, enabled) and delete endpoints, list an endpoint's deliveries with every
 * attempt, and replay a delivery. All of it is the tenant's Tenant object's; this only routes.
 */
import { createRoute } from '@hono/zod-openapi';
import type { RpcResult, WebhookDeliveryPage, WebhookDeliveryView, WebhookView } from '../../thread/bindings/index.js';
import { forgetInterest } from '../../thread/webhooks/index.js';
import { AUTH_FAILURES, failure, json, jsonBody, jsonRequest, routeApp, unwrap } from '../contract/index.js';
import { mayManage, webhookStub, webhookViewer } from './tenant-webhooks.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryPageSchema,
  DeliveryParams,
  DeliverySchema,
  UpdateWebhookBody,
  WebhookListSchema,
  WebhookParams,
  WebhookSchema,
} from './webhook-schemas.js';

const FAILURES = {
  ...AUTH_FAILURES,
  501: failure('`not_configured`: the Worker has no TENANTS binding, which keeps webhooks'),
} as const;
const NOT_FOUND = failure('`webhook_not_found`: no such webhook of yours');
const INVALID = failure(
  '`invalid_url` (not https, outside EGRESS_ALLOW_HOSTS, or an inward address), `invalid_events` (none, or an unknown name), `invalid_request` or `invalid_json`; nothing is changed',
);

const createWebhook = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createWebhook',
  tags: ['webhooks'],
  summary: "Register an endpoint: an admin's hears the whole tenant, anyone else's the threads it owns",
  middleware: [jsonBody()],
  request: { body: jsonRequest(CreateWebhookBody) },
  responses: {
    201: json(CreatedWebhookSchema, 'The endpoint, with its signing secret (shown only here)'),
    400: INVALID,
    403: failure('`forbidden`: below the member role'),
    409: failure('`too_many_webhooks`: the tenant has the most it may have'),
    ...FAILURES,
  },
});

const listWebhooks = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listWebhooks',
  tags: ['webhooks'],
  summary: "Your endpoints (an admin: the tenant's), oldest first",
  responses: { 200: json(WebhookListSchema, 'The endpoints'), ...FAILURES },
});

const getWebhook = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getWebhook',
  tags: ['webhooks'],
  summary: 'One endpoint: its events, whether it is enabled and why not',
  request: { params: WebhookParams },
  responses: { 200: json(WebhookSchema, 'The endpoint'), 404: NOT_FOUND, ...FAILURES },
});

const updateWebhook = createRoute({
  method: 'patch',
  path: '/{id}',
  operationId: 'updateWebhook',
  tags: ['webhooks'],
  summary: 'Change the url or events, or enable (forgetting its failures) or disable an endpoint',
  middleware: [jsonBody()],
  request: { params: WebhookParams, body: jsonRequest(UpdateWebhookBody) },
  responses: {
    200: json(WebhookSchema, 'The endpoint as changed'),
    400: INVALID,
    403: failure('`forbidden`: below the member role'),
    404: NOT_FOUND,
    ...FAILURES,
  },
});

const deleteWebhook = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteWebhook',
  tags: ['webhooks'],
  summary: 'Delete an endpoint and its deliveries',
  request: { params: WebhookParams },
  responses: {
    204: { description: 'Deleted' },
    403: failure('`forbidden`: below the member role'),
    404: NOT_FOUND,
    ...FAILURES,
  },
});

const listWebhookDeliveries = createRoute({
  method: 'get',
  path: '/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['webhooks'],
  summary: "An endpoint's deliveries, newest first, each with its attempts and last status",
  request: { params: WebhookParams, query: DeliveriesQuery },
  responses: { 200: json(DeliveryPageSchema, 'The deliveries'), 404: NOT_FOUND, ...FAILURES },
});

const replayWebhookDelivery = createRoute({
  method: 'post',
  path: '/{id}/deliveries/{deliveryId}/replay',
  operationId: 'replayWebhookDelivery',
  tags: ['webhooks'],
  summary: 'Send a delivery again now, with the same id and body; a failure is retried on the schedule',
  request: { params: DeliveryParams },
  responses: {
    200: json(DeliverySchema, 'The delivery after this attempt'),
    403: failure('`forbidden`: below the member role'),
    404: failure('`webhook_not_found` or `delivery_not_found`'),
    409: failure('`webhook_disabled`: enable the endpoint first; `delivery_in_flight`: it is being sent now'),
    ...FAILURES,
  },
});

export function webhookRoutes() {
  const app = routeApp();

  app.openapi(createWebhook, async (c) => {
    const principal = c.get('principal');
    mayManage(principal);
    const created = await webhookStub(c.env, principal).createWebhook(webhookViewer(principal), c.req.valid('json'));
    forgetInterest(principal.tenant);
    return c.json(unwrap(created), 201);
  });

  app.openapi(listWebhooks, async (c) => {
    const principal = c.get('principal');
    const webhooks = await webhookStub(c.env, principal).listWebhooks(webhookViewer(principal));
    return c.json({ webhooks }, 200);
  });

  app.openapi(getWebhook, async (c) => {
    const principal = c.get('principal');
    const found = await webhookStub(c.env, principal).getWebhook(webhookViewer(principal), c.req.valid('param').id);
    return c.json(unwrap(found as RpcResult<WebhookView>), 200);
  });

  app.openapi(updateWebhook, async (c) => {
    const principal = c.get('principal');
    mayManage(principal);
    const { id } = c.req.valid('param');
    const changed = await webhookStub(c.env, principal).updateWebhook(
      webhookViewer(principal),
      id,
      c.req.valid('json'),
    );
    forgetInterest(principal.tenant);
    return c.json(unwrap(changed as RpcResult<WebhookView>), 200);
  });

  app.openapi(deleteWebhook, async (c) => {
    const principal = c.get('principal');
    mayManage(principal);
    unwrap(await webhookStub(c.env, principal).deleteWebhook(webhookViewer(principal), c.req.valid('param').id));
    forgetInterest(principal.tenant);
    return c.body(null, 204);
  });

  app.openapi(listWebhookDeliveries, async (c) => {
    const principal = c.get('principal');
    const { id } = c.req.valid('param');
    const page = await webhookStub(c.env, principal).listWebhookDeliveries(
      webhookViewer(principal),
      id,
      c.req.valid('query'),
    );
    return c.json(unwrap(page as RpcResult<WebhookDeliveryPage>), 200);
  });

  app.openapi(replayWebhookDelivery, async (c) => {
    const principal = c.get('principal');
    mayManage(principal);
    const { id, deliveryId } = c.req.valid('param');
    const replayed = await webhookStub(c.env, principal).replayWebhookDelivery(
      webhookViewer(principal),
      id,
      deliveryId,
    );
    return c.json(unwrap(replayed as RpcResult<WebhookDeliveryView>), 200);
  });

  return app;
}
