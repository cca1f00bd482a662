/**
 * What the Worker asks of a tenant's webhooks (WH-1..WH-8), and the shapes its answers take: the
 * RPC half of the Tenant object's webhook methods (tenant-api.ts), whose logic is thread/webhooks'.
 * Field names are the API's (snake_case), times ms since the epoch.
 */

/** Who asks: an admin sees and manages every endpoint of its tenant, anyone else only its own. */
export interface WebhookViewer {
  subject: string;
  admin: boolean;
}

/** A new endpoint, checked by the object: `invalid_url`, `invalid_events`. */
export interface WebhookInput {
  url: string;
  events: string[];
  /** Only this thread's events (an endpoint given when the thread is started). */
  threadId?: string;
}

export interface WebhookPatch {
  url?: string;
  events?: string[];
  /** `true` re-enables an endpoint disabled after its failures, and forgets them. */
  enabled?: boolean;
}

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  /** Whose threads it hears: `tenant` (every thread), `owner` (its creator's), `thread` (one). */
  scope: 'tenant' | 'owner' | 'thread';
  thread_id: string | null;
  owner: string | null;
  created_by: string;
  created_at: number;
  enabled: boolean;
  /** Why it is disabled (after too many failed attempts), or null. */
  disabled_reason: string | null;
  /** Failed attempts since the last success. */
  consecutive_failures: number;
}

/** The answer to a registration: the only time the secret is shown. */
export interface WebhookCreated extends WebhookView {
  secret: string;
}

export interface WebhookAttemptView {
  at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDeliveryView {
  /** The `webhook-id` header: the same on every attempt and replay. */
  id: string;
  webhook_id: string;
  type: string;
  thread_id: string;
  status: 'pending' | 'delivered' | 'failed';
  created_at: number;
  /** When the next attempt is due, or null. */
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  /** Every attempt, oldest first. */
  attempts: WebhookAttemptView[];
  /** The body sent: `{ type, timestamp, data }`. */
  payload: string;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDeliveryView[];
  /** Pass as `before` for the next (older) page; null on the last. */
  next_before: number | null;
}
