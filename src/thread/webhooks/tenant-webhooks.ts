/**
 * A tenant's webhooks as its Tenant Durable Object holds them (WH-1..WH-8): the registry of
 * endpoints and the outbox, over the object's SQLite rows, with the deployment's egress policy and
 * the object's alarm. The object's RPC methods and its alarm call this and nothing else of the room.
 */
import type { RuntimeEnv } from '../bindings/index.js';
import { WebhookRows } from '../storage/index.js';
import { armAlarmFor } from './alarm-time.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookRegistry } from './webhook-registry.js';
import { webhookEgress } from './webhook-url.js';

export class TenantWebhooks {
  readonly registry: WebhookRegistry;
  readonly outbox: WebhookOutbox;

  constructor(storage: DurableObjectStorage, env: RuntimeEnv) {
    const rows = new WebhookRows(storage);
    const egress = () => webhookEgress(env);
    this.registry = new WebhookRegistry(rows, egress);
    this.outbox = new WebhookOutbox({
      rows,
      registry: this.registry,
      egress,
      armFor: (at) => armAlarmFor(storage, at),
    });
  }

  /** The alarm's part: deliveries due by `now`, then the alarm set for the next one. */
  deliverDue(now: number): Promise<void> {
    return this.outbox.deliverDue(now);
  }
}
