/**
 * A tenant's registered endpoints (WH-2, WH-6), kept by its Tenant object: made, listed, changed and
 * deleted for whoever may see them (an admin: all of the tenant's; anyone else: those it made), and
 * which of them hear a given event. An admin's endpoint hears the whole tenant, anyone else's only
 * threads its maker owns, one given when a thread starts only that thread. The enabled endpoints are
 * kept in memory, so an event that no endpoint hears costs no SQL.
 */
import type { EgressPolicy } from '../../engine/egress/index.js';
import {
  type ApiError,
  fail,
  ok,
  type PublishedEvent,
  type RpcResult,
  type WebhookCreated,
  type WebhookInput,
  type WebhookPatch,
  type WebhookView,
  type WebhookViewer,
} from '../bindings/index.js';
import type { WebhookRow, WebhookRows, WebhookScope } from '../storage/index.js';
import { eventsProblem, normalEvents, urlProblem, webhookInputProblem } from './webhook-input.js';
import { newWebhookId, newWebhookSecret } from './webhook-secret.js';
import { webhookView } from './webhook-views.js';

/** Endpoints a tenant may have: a flood of registrations is refused rather than slowing every event. */
export const MAX_WEBHOOKS = 1_000;
/** Endpoints one person may make, so that no member fills the tenant's share. */
export const MAX_WEBHOOKS_PER_MAKER = 100;

function notFound(id: string): ApiError {
  return { status: 404, code: 'webhook_not_found', message: `no webhook ${id.slice(0, 80)}` };
}

function hears(row: WebhookRow, event: PublishedEvent): boolean {
  if (!row.enabled || !row.events.includes(event.type)) return false;
  const { scope } = row;
  if (scope.kind === 'owner') return scope.owner === event.owner;
  if (scope.kind === 'thread') return scope.threadId === event.threadId;
  return true;
}

export class WebhookRegistry {
  /** The enabled endpoints, read once per object lifetime and kept in step with every change. */
  private enabled: WebhookRow[] | null = null;

  constructor(
    private readonly rows: WebhookRows,
    private readonly egress: () => EgressPolicy,
  ) {}

  private enabledRows(): WebhookRow[] {
    this.enabled ??= this.rows.webhooks().filter((row) => row.enabled);
    return this.enabled;
  }

  private changed(): void {
    this.enabled = null;
  }

  /** The event types some enabled endpoint hears. */
  interest(): string[] {
    return [...new Set(this.enabledRows().flatMap((row) => row.events))];
  }

  /** The enabled endpoints that hear `event`. */
  listeners(event: PublishedEvent): WebhookRow[] {
    return this.enabledRows().filter((row) => hears(row, event));
  }

  /** The endpoint `id` when `viewer` may see it. */
  visible(viewer: WebhookViewer, id: string): RpcResult<WebhookRow> {
    const row = this.rows.webhook(id);
    if (!row || (!viewer.admin && row.createdBy !== viewer.subject)) return fail(notFound(id));
    return ok(row);
  }

  get(viewer: WebhookViewer, id: string): RpcResult<WebhookView> {
    const found = this.visible(viewer, id);
    return found.ok ? ok(webhookView(found.value)) : found;
  }

  create(viewer: WebhookViewer, input: WebhookInput, now: number): RpcResult<WebhookCreated> {
    const problem = webhookInputProblem(input, this.egress());
    if (problem) return fail(problem);
    const all = this.rows.webhooks();
    if (all.length >= MAX_WEBHOOKS) {
      return fail({ status: 409, code: 'too_many_webhooks', message: `a tenant has at most ${MAX_WEBHOOKS} webhooks` });
    }
    if (all.filter((row) => row.createdBy === viewer.subject).length >= MAX_WEBHOOKS_PER_MAKER) {
      const message = `one person makes at most ${MAX_WEBHOOKS_PER_MAKER} webhooks; delete one first`;
      return fail({ status: 409, code: 'too_many_webhooks', message });
    }
    const scope: WebhookScope = input.threadId
      ? { kind: 'thread', threadId: input.threadId }
      : viewer.admin
        ? { kind: 'tenant' }
        : { kind: 'owner', owner: viewer.subject };
    const row: WebhookRow = {
      id: newWebhookId(),
      url: input.url,
      events: normalEvents(input.events),
      secret: newWebhookSecret(),
      scope,
      createdBy: viewer.subject,
      createdAt: now,
      enabled: true,
      disabledReason: null,
      failures: 0,
    };
    this.rows.insertWebhook(row);
    this.changed();
    return ok({ ...webhookView(row), secret: row.secret });
  }

  list(viewer: WebhookViewer): WebhookView[] {
    return this.rows
      .webhooks()
      .filter((row) => viewer.admin || row.createdBy === viewer.subject)
      .map(webhookView);
  }

  update(viewer: WebhookViewer, id: string, patch: WebhookPatch): RpcResult<WebhookView> {
    const found = this.visible(viewer, id);
    if (!found.ok) return found;
    const problem =
      (patch.url !== undefined ? urlProblem(patch.url, this.egress()) : null) ??
      (patch.events !== undefined ? eventsProblem(patch.events) : null);
    if (problem) return fail(problem);
    const row = { ...found.value };
    if (patch.url !== undefined) row.url = patch.url;
    if (patch.events !== undefined) row.events = normalEvents(patch.events);
    if (patch.enabled === true) Object.assign(row, { enabled: true, disabledReason: null, failures: 0 });
    if (patch.enabled === false) Object.assign(row, { enabled: false, disabledReason: 'disabled by a request' });
    this.rows.updateWebhook(row);
    if (!row.enabled) this.rows.failPending(row.id, 'the webhook is disabled');
    this.changed();
    return ok(webhookView(row));
  }

  remove(viewer: WebhookViewer, id: string): RpcResult<null> {
    const found = this.visible(viewer, id);
    if (!found.ok) return found;
    this.rows.deleteWebhook(id);
    this.changed();
    return ok(null);
  }

  /** A thread was deleted: the endpoints given when it started go with their deliveries. */
  removeForThread(threadId: string): void {
    const ids = this.rows.webhooksOfThread(threadId);
    for (const id of ids) this.rows.deleteWebhook(id);
    if (ids.length > 0) this.changed();
  }

  /**
   * An attempt's outcome for its endpoint's count of failures in a row: a success forgets them; the
   * `limit`th disables the endpoint and ends its pending deliveries. True when this disabled it.
   */
  countAttempt(id: string, delivered: boolean, limit: number, lastError: string | null): boolean {
    const row = this.rows.webhook(id);
    if (!row) return false;
    const failures = delivered ? 0 : row.failures + 1;
    if (failures === row.failures) return false;
    const disables = row.enabled && failures >= limit;
    const reason = `disabled after ${failures} failed attempts in a row; the last: ${lastError ?? 'unknown'}`;
    this.rows.updateWebhook({
      ...row,
      failures,
      ...(disables ? { enabled: false, disabledReason: reason } : {}),
    });
    if (disables) {
      this.rows.failPending(id, 'the webhook was disabled after too many failed attempts');
      this.changed();
    }
    return disables;
  }
}
