/**
 * What a registration must be (WH-2, WH-5): a URL the webhook egress rule admits (400 `invalid_url`)
 * and a non-empty list of known event names (400 `invalid_events`). The Tenant object checks every
 * registration and change; `POST /api/threads` checks its `webhooks` before anything is created.
 */
import type { EgressPolicy } from '../../engine/egress/index.js';
import type { ApiError } from '../bindings/index.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES } from './event-types.js';
import { webhookUrlProblem } from './webhook-url.js';

export function urlProblem(url: unknown, policy: EgressPolicy): ApiError | null {
  const problem = typeof url === 'string' ? webhookUrlProblem(url, policy) : 'the URL must be a string';
  return problem ? { status: 400, code: 'invalid_url', message: `url: ${problem}` } : null;
}

export function eventsProblem(events: unknown): ApiError | null {
  const known = WEBHOOK_EVENT_TYPES.join(', ');
  if (!Array.isArray(events) || events.length === 0) {
    return { status: 400, code: 'invalid_events', message: `events: name at least one of ${known}` };
  }
  const unknown = events.filter((event) => !isWebhookEventType(event));
  if (unknown.length === 0) return null;
  const shown = unknown.slice(0, 5).map((event) => JSON.stringify(String(event).slice(0, 64)));
  return {
    status: 400,
    code: 'invalid_events',
    message: `events: unknown event ${shown.join(', ')}; known events: ${known}`,
  };
}

/** The first problem of a registration, or null. */
export function webhookInputProblem(input: { url: unknown; events: unknown }, policy: EgressPolicy): ApiError | null {
  return urlProblem(input.url, policy) ?? eventsProblem(input.events);
}

/** The events once each, in the documented order. */
export function normalEvents(events: readonly string[]): string[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type));
}
