/**
 * The RPC contract of the Tenant Durable Object (IDN-5, IDN-6): one object per tenant, named by the
 * tenant, counting what its limits and quotas count. The Worker and the thread objects call it; the
 * class is in thread/tenancy.
 */
import type { Principal, Role } from '../access/index.js';
import type { TenantScheduleInput, TenantScheduleView } from './schedule-api.js';
import type { RpcResult } from './thread-api.js';
import type {
  WebhookCreated,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookInput,
  WebhookPatch,
  WebhookView,
  WebhookViewer,
} from './webhook-api.js';

/**
 * The limits of one scope (the whole tenant, or each principal of it). A field left out is unlimited;
 * a tenant's override may set a field to `null`, unlimited whatever the default says.
 */
export interface LimitSet {
  /** Requests admitted in any 60 seconds. */
  requestsPerMinute?: number | null;
  /** Threads started in any 60 minutes. */
  threadsPerHour?: number | null;
  /** Turns running (or waiting for an answer) at once. */
  concurrentTurns?: number | null;
  /** Model tokens (input and output) per UTC day. */
  tokensPerDay?: number | null;
  /** Model cost in US dollars per UTC day. */
  costPerDay?: number | null;
}

/** Limits for the tenant as a whole and for each principal in it. */
export interface TenantLimits {
  tenant: LimitSet;
  principal: LimitSet;
}

/** A tenant's limits: the Worker's defaults (`TENANT_LIMITS`), its own override, and what applies. */
export interface LimitsView {
  tenant: string;
  defaults: TenantLimits;
  override: TenantLimits | null;
  effective: TenantLimits;
}

/** The answer to a request for something counted. */
export type Admission = { ok: true } | { ok: false; code: 'rate_limited'; message: string; retryAfterSeconds: number };

/** An admission with the tenant's limits, so the Worker can skip the next RPC when none applies. */
export type AdmissionWithLimits = Admission & { limits: TenantLimits };

/** What counts toward a spend quota: tokens and US dollars. */
export interface Spend {
  tokens: number;
  cost: number;
}

/** What a model call is told before it starts: go ahead under a hold, or refused. */
export type SpendDecision = { ok: true; hold: string } | { ok: false; code: 'quota_exceeded'; message: string };

/** What the Worker and threads may ask of a tenant's object; `now` is given only by tests. */
/** What may change of an issued key (IDN-2), as its tenant's object keeps it. */
export interface KeyState {
  subject: string;
  role: Role;
  revoked_at: number | null;
  expires_at: number | null;
}

export interface TenantRpc extends Rpc.DurableObjectBranded {
  /** An issued key's current role, revocation and expiry; null when no key has the id (IDN-2). */
  keyState(id: string, now?: number): Promise<KeyState | null>;
  /** A key's row changed (revoked, rotated, re-roled): the object reads it again on next use. */
  keyChanged(id: string): Promise<void>;
  limits(tenant: string): Promise<LimitsView>;
  setLimits(tenant: string, override: TenantLimits | null): Promise<LimitsView>;
  /** Counts a request or a thread start of `key` when its window has room. */
  admit(kind: 'request' | 'thread', key: string, now?: number): Promise<AdmissionWithLimits>;
  /** A turn slot for `thread`; `fresh` says it was not held already. */
  acquireTurn(
    thread: string,
    key: string,
    now?: number,
  ): Promise<Admission & { fresh?: boolean; limits: TenantLimits }>;
  renewTurn(thread: string, now?: number): Promise<void>;
  releaseTurn(thread: string): Promise<void>;
  /** Reserves a model call's estimate against the day's quotas of the tenant and `key`, or refuses. */
  holdSpend(key: string, estimate: Spend, now?: number): Promise<SpendDecision & { limits: TenantLimits }>;
  /** Replaces a hold by what the call spent (nothing when it failed). */
  settleSpend(hold: string, key: string, spent: Spend | null, now?: number): Promise<void>;
  /**
   * Puts a thread's event in the outbox of each enabled webhook that hears it (WH-1); answers the
   * event types the tenant's enabled webhooks hear, which the publishing isolate keeps a few seconds.
   */
  publishWebhookEvent(event: PublishedEvent, now?: number): Promise<string[]>;
  /** Registers an endpoint (WH-2): 400 `invalid_url` or `invalid_events`; the secret is in this answer only. */
  createWebhook(viewer: WebhookViewer, input: WebhookInput, now?: number): Promise<RpcResult<WebhookCreated>>;
  listWebhooks(viewer: WebhookViewer): Promise<WebhookView[]>;
  getWebhook(viewer: WebhookViewer, id: string): Promise<RpcResult<WebhookView>>;
  updateWebhook(viewer: WebhookViewer, id: string, patch: WebhookPatch): Promise<RpcResult<WebhookView>>;
  deleteWebhook(viewer: WebhookViewer, id: string): Promise<RpcResult<null>>;
  listWebhookDeliveries(
    viewer: WebhookViewer,
    id: string,
    page: { limit: number; before?: number },
  ): Promise<RpcResult<WebhookDeliveryPage>>;
  /** A thread-starting schedule of `principal` (400 `invalid_cron`, `invalid_timezone`, `invalid_at`, ...). */
  createSchedule(
    principal: Principal,
    input: TenantScheduleInput,
    now?: number,
  ): Promise<RpcResult<TenantScheduleView>>;
  /** The schedules `principal` made; all of the tenant's for an admin. */
  listSchedules(principal: Principal): Promise<{ schedules: TenantScheduleView[] }>;
  updateSchedule(
    principal: Principal,
    id: string,
    paused: boolean,
    now?: number,
  ): Promise<RpcResult<TenantScheduleView>>;
  deleteSchedule(principal: Principal, id: string): Promise<RpcResult<TenantScheduleView>>;
  /** Starts the threads of the schedules due by `now` (tests move it); the alarm's part, callable on its own. */
  fireSchedules(now?: number): Promise<void>;
  /** Thread `threadId` was deleted: its own endpoints (given when it started) go too (WH-2). */
  threadDeleted(threadId: string): Promise<void>;
  /** Sends a delivery again at once, with the same id and body (WH-7). */
  replayWebhookDelivery(
    viewer: WebhookViewer,
    id: string,
    deliveryId: string,
    now?: number,
  ): Promise<RpcResult<WebhookDeliveryView>>;
}

/** A thread's event as it reaches the tenant's outbox (its type is one of thread/webhooks' event types). */
export interface PublishedEvent {
  type: string;
  tenant: string;
  owner: string;
  threadId: string;
  data: Record<string, unknown>;
}
