/**
 * Handing an event to the tenant's outbox (WH-1): one RPC to the Tenant object, which keeps the
 * delivery durably. A thread publishes from inside a turn, so the cost must stay near zero for a
 * tenant without webhooks: each isolate remembers for a few seconds which event types any of the
 * tenant's endpoints hears (interest-cache.ts) and skips the RPC for the others.
 */
import type { RuntimeEnv } from '../bindings/index.js';
import type { WebhookEvent } from './event-types.js';
import { knownUninterested, rememberInterest } from './interest-cache.js';

async function handOver(env: RuntimeEnv, event: WebhookEvent): Promise<void> {
  if (!env.TENANTS) return;
  // The namespace directly, not tenancy's helper: the Tenant object imports this room.
  const stub = env.TENANTS.get(env.TENANTS.idFromName(event.tenant));
  const interest = await stub.publishWebhookEvent(event);
  rememberInterest(event.tenant, interest);
}

/** Hands the event to the tenant's outbox; never throws; a no-op when TENANTS is not bound. */
export function publishEvent(
  ctx: { waitUntil(p: Promise<unknown>): void },
  env: RuntimeEnv,
  event: WebhookEvent,
): void {
  if (!env.TENANTS || knownUninterested(event.tenant, event.type)) return;
  ctx.waitUntil(
    handOver(env, event).catch((error) => console.error(`publishing the webhook event ${event.type} failed:`, error)),
  );
}
