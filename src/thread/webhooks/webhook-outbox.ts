/**
 * A tenant's durable outbox (WH-3, WH-4, WH-7): each event that an endpoint hears becomes a
 * delivery row with its exact body, stored before anything is sent, then tried from the Tenant
 * object's alarm on the retry schedule until the endpoint takes it (2xx), refuses it for good (a 4xx
 * other than 408 and 429, or a URL the egress policy refuses), or the schedule runs out. Each attempt
 * is kept. An endpoint whose attempts fail DISABLE_AFTER times in a row is disabled. A replay sends
 * a delivery again at once, with the same id and body. `now` is given only by tests, to move the clock.
 */
import type { EgressPolicy } from '../../engine/egress/index.js';
import {
  type ApiError,
  fail,
  ok,
  type PublishedEvent,
  type RpcResult,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  type WebhookViewer,
} from '../bindings/index.js';
import type { DeliveryRow, WebhookRows } from '../storage/index.js';
import { finalRefusal, nextAttemptAt } from './retry-schedule.js';
import { sendAttempt } from './send-attempt.js';
import type { WebhookRegistry } from './webhook-registry.js';
import { newDeliveryId } from './webhook-secret.js';
import { deliveryView } from './webhook-views.js';

/** Failed attempts in a row after which an endpoint is disabled. */
export const DISABLE_AFTER = 20;
/** Deliveries tried at once by one run of the alarm; the rest wait for the next run. */
const BATCH = 20;
/** Finished deliveries are kept this long for inspection and replay. */
export const HISTORY_MS = 7 * 24 * 3_600_000;

export interface OutboxHost {
  rows: WebhookRows;
  registry: WebhookRegistry;
  egress(): EgressPolicy;
  /** Sets the object's alarm for `at` unless an earlier one is set. */
  armFor(at: number): Promise<void>;
  random?(): number;
}

function notFound(id: string): ApiError {
  return { status: 404, code: 'delivery_not_found', message: `no delivery ${id.slice(0, 80)}` };
}

export class WebhookOutbox {
  /** Deliveries being tried now: a replay and the alarm never send the same one at once. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly host: OutboxHost) {}

  /** Stores one delivery per endpoint that hears `event`, due at once; answers the tenant's interest. */
  async enqueue(event: PublishedEvent, now: number): Promise<string[]> {
    const listeners = this.host.registry.listeners(event);
    if (listeners.length > 0) {
      const body = JSON.stringify({
        type: event.type,
        timestamp: new Date(now).toISOString(),
        data: { thread_id: event.threadId, ...event.data },
      });
      for (const webhook of listeners) {
        this.host.rows.insertDelivery({
          ...{ id: newDeliveryId(), webhookId: webhook.id, type: event.type, threadId: event.threadId, body },
          ...{ createdAt: now, status: 'pending', attempts: 0, nextAt: now, lastStatus: null, lastError: null },
        });
      }
      await this.host.armFor(now);
    }
    return this.host.registry.interest();
  }

  /** Tries every delivery due by `now` (BATCH at a time), then sets the alarm for the next one due. */
  async deliverDue(now: number): Promise<void> {
    for (let round = 0; round < 50; round++) {
      const due = this.host.rows.due(now, BATCH).filter((row) => !this.inFlight.has(row.id));
      if (due.length === 0) break;
      // Endpoints in parallel, each one's deliveries in order: a failure that disables an endpoint
      // stops the attempts behind it.
      const byEndpoint = new Map<string, DeliveryRow[]>();
      for (const row of due) byEndpoint.set(row.webhookId, [...(byEndpoint.get(row.webhookId) ?? []), row]);
      await Promise.all(
        [...byEndpoint.values()].map(async (rows) => {
          for (const row of rows) await this.attempt(row, now);
        }),
      );
    }
    this.host.rows.pruneBefore(now - HISTORY_MS);
    const next = this.host.rows.nextDue();
    if (next !== null) await this.host.armFor(next);
  }

  /** One attempt at `row`, recorded, and what it means for the delivery and its endpoint. */
  private async attempt(row: DeliveryRow, now: number): Promise<DeliveryRow> {
    const webhook = this.host.rows.webhook(row.webhookId);
    if (!webhook?.enabled) {
      const ended: DeliveryRow = { ...row, status: 'failed', nextAt: null, lastError: 'the webhook is disabled' };
      this.host.rows.updateDelivery(ended);
      return ended;
    }
    this.inFlight.add(row.id);
    try {
      const outgoing = { id: row.id, url: webhook.url, secret: webhook.secret, body: row.body };
      const result = await sendAttempt(this.host.egress(), outgoing, now);
      const attempts = row.attempts + 1;
      const { statusCode, error } = result.attempt;
      const ends = result.delivered || result.refused || (statusCode !== null && finalRefusal(statusCode));
      const nextAt = ends ? null : nextAttemptAt(attempts, now, this.host.random?.());
      const status = result.delivered ? 'delivered' : nextAt === null ? 'failed' : 'pending';
      const updated: DeliveryRow = { ...row, attempts, status, nextAt, lastStatus: statusCode, lastError: error };
      this.host.rows.addAttempt(row.id, result.attempt);
      this.host.rows.updateDelivery(updated);
      this.host.registry.countAttempt(webhook.id, result.delivered, DISABLE_AFTER, error);
      return updated;
    } finally {
      this.inFlight.delete(row.id);
    }
  }

  /** An endpoint's deliveries, newest first, each with its attempts. */
  deliveries(
    viewer: WebhookViewer,
    id: string,
    page: { limit: number; before?: number },
  ): RpcResult<WebhookDeliveryPage> {
    const found = this.host.registry.visible(viewer, id);
    if (!found.ok) return found;
    const rows = this.host.rows.deliveriesOf(id, page.limit + 1, page.before);
    const shown = rows.slice(0, page.limit);
    return ok({
      deliveries: shown.map((row) => deliveryView(row, this.host.rows.attempts(row.id))),
      next_before: rows.length > page.limit ? (shown.at(-1)?.createdAt ?? null) : null,
    });
  }

  /**
   * Sends delivery `deliveryId` of endpoint `id` again now, the same id and body, its schedule
   * started afresh (its earlier attempts stay listed); 409 when the endpoint is disabled or the
   * delivery is being sent at this moment.
   */
  async replay(
    viewer: WebhookViewer,
    id: string,
    deliveryId: string,
    now: number,
  ): Promise<RpcResult<WebhookDeliveryView>> {
    const found = this.host.registry.visible(viewer, id);
    if (!found.ok) return found;
    const row = this.host.rows.delivery(deliveryId);
    if (!row || row.webhookId !== id) return fail(notFound(deliveryId));
    if (!found.value.enabled) {
      return fail({ status: 409, code: 'webhook_disabled', message: 'the webhook is disabled: enable it first' });
    }
    if (this.inFlight.has(row.id)) {
      return fail({ status: 409, code: 'delivery_in_flight', message: 'the delivery is being sent at this moment' });
    }
    const updated = await this.attempt({ ...row, status: 'pending', attempts: 0, nextAt: now }, now);
    if (updated.nextAt !== null) await this.host.armFor(updated.nextAt);
    return ok(deliveryView(updated, this.host.rows.attempts(row.id)));
  }
}
