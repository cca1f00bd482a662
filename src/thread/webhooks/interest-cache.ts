/**
 * Each isolate's copy, a few seconds old at most, of which event types a tenant's enabled webhooks
 * hear (WH-1): with it a turn of a tenant without webhooks publishes nothing and makes no RPC. The
 * Tenant object answers every publication with its current interest, so the copy is refreshed by the
 * calls that are made anyway; a webhook registered elsewhere is heard within INTEREST_TTL_MS, and
 * the isolate that registers one forgets its copy at once.
 */
import type { WebhookEventType } from './event-types.js';

/** How long an isolate trusts its copy of a tenant's interest. */
export const INTEREST_TTL_MS = 5_000;
/** Copies kept at most: a flood of tenants empties the cache rather than growing it. */
const MAX_TENANTS = 1_000;

const copies = new Map<string, { at: number; events: ReadonlySet<string> }>();

/** True when this isolate knows, recently, that no endpoint of the tenant hears `type`. */
export function knownUninterested(tenant: string, type: WebhookEventType, now = Date.now()): boolean {
  const copy = copies.get(tenant);
  return copy !== undefined && now - copy.at < INTEREST_TTL_MS && !copy.events.has(type);
}

export function rememberInterest(tenant: string, events: readonly string[], now = Date.now()): void {
  if (copies.size >= MAX_TENANTS && !copies.has(tenant)) copies.clear();
  copies.set(tenant, { at: now, events: new Set(events) });
}

/** The tenant's webhooks changed in this isolate: the next event asks the object again. */
export function forgetInterest(tenant: string): void {
  copies.delete(tenant);
}
