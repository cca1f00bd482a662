/**
 * Endpoints and deliveries as the API shows them (WH-6): rows turned into the snake_case views of
 * bindings/webhook-api.ts. The secret never leaves through a view; only a registration's answer has it.
 */
import type { WebhookDeliveryView, WebhookView } from '../bindings/index.js';
import type { AttemptRow, DeliveryRow, WebhookRow } from '../storage/index.js';

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    scope: row.scope.kind,
    thread_id: row.scope.kind === 'thread' ? row.scope.threadId : null,
    owner: row.scope.kind === 'owner' ? row.scope.owner : null,
    created_by: row.createdBy,
    created_at: row.createdAt,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    consecutive_failures: row.failures,
  };
}

export function deliveryView(row: DeliveryRow, attempts: readonly AttemptRow[]): WebhookDeliveryView {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    type: row.type,
    thread_id: row.threadId,
    status: row.status,
    created_at: row.createdAt,
    next_attempt_at: row.nextAt,
    last_status: row.lastStatus,
    last_error: row.lastError,
    attempts: attempts.map((attempt) => ({
      at: attempt.at,
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    })),
    payload: row.body,
  };
}
