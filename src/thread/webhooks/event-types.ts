/**
 * The events a webhook can hear (WH-1) and the shape the thread hands to its tenant's outbox. The
 * names are the public ones: they are what an endpoint registers for and what a delivery's `type` says.
 */

export type WebhookEventType =
  | 'turn.completed'
  | 'turn.failed'
  | 'wait.opened'
  | 'thread.created'
  | 'budget.exceeded'
  | 'schedule.fired';

/** Every event type, in the order the docs list them. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'thread.created',
  'turn.completed',
  'turn.failed',
  'wait.opened',
  'budget.exceeded',
  'schedule.fired',
];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

export interface WebhookEvent {
  type: WebhookEventType;
  /** The thread's tenant. */
  tenant: string;
  /** The thread's owner (subject), for webhooks scoped to one person's threads. */
  owner: string;
  threadId: string;
  /** Already scrubbed by the caller: never a secret value. */
  data: Record<string, unknown>;
}
