/**
 * The Tenant Durable Object (IDN-5, IDN-6): one per tenant (named by the tenant), the single place
 * where its rate limits, turn slots and spend quotas are counted, so they hold exactly however many
 * Worker isolates and threads ask at once. It keeps the tenant's override of the default limits; the
 * defaults are the Worker's `TENANT_LIMITS`. `now` is given only by tests, to move the clock.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Principal } from '../access/index.js';
import type {
  AdmissionWithLimits,
  KeyState,
  LimitsView,
  PublishedEvent,
  RuntimeEnv,
  Spend,
  SpendDecision,
  TenantLimits,
  TenantRpc,
  TenantScheduleInput,
  WebhookInput,
  WebhookPatch,
  WebhookViewer,
} from '../bindings/index.js';
import { ApiKeyStore } from '../keys/index.js';
import { TenantScheduler } from '../schedules/index.js';
import { ScheduleRows, TenantRows } from '../storage/index.js';
import { TenantWebhooks } from '../webhooks/index.js';
import { KeyStates } from './key-states.js';
import { defaultLimits, effectiveLimits } from './limit-config.js';
import { TenantCounters } from './tenant-counters.js';

/** Where the tenant's override is kept (key-value storage, beside the SQL rows). */
const OVERRIDE_KEY = 'limits';

export class Tenant extends DurableObject<RuntimeEnv> implements TenantRpc {
  private readonly counters: TenantCounters;
  private override: TenantLimits | null = null;
  private readonly keys: KeyStates;
  private readonly webhooks: TenantWebhooks;
  private readonly schedules: TenantScheduler;

  constructor(ctx: DurableObjectState, env: RuntimeEnv) {
    super(ctx, env);
    this.counters = new TenantCounters(new TenantRows(ctx.storage));
    this.keys = new KeyStates(new ApiKeyStore(env.DB), (work) =>
      ctx.waitUntil(work.catch((error) => console.error("recording a key's last use failed:", error))),
    );
    this.webhooks = new TenantWebhooks(ctx.storage, env);
    this.schedules = new TenantScheduler({
      ctx,
      env,
      rows: new ScheduleRows(ctx.storage, 'tenant_schedules'),
      // A schedule's thread start counts like its maker's own, against the same limits.
      admitStart: (subject, threadId, now) => {
        const limits = this.effective();
        const key = `sub:${subject}`;
        const admitted = this.counters.admit('thread', key, limits, now);
        if (!admitted.ok) return admitted.code;
        const slot = this.counters.acquireTurn(threadId, key, limits, now);
        return slot.ok ? null : slot.code;
      },
    });
    ctx.blockConcurrencyWhile(async () => {
      this.override = (await ctx.storage.get<TenantLimits>(OVERRIDE_KEY)) ?? null;
    });
  }

  private effective(): TenantLimits {
    return effectiveLimits(defaultLimits(this.env.TENANT_LIMITS), this.override);
  }

  async keyState(id: string, now = Date.now()): Promise<KeyState | null> {
    return this.keys.state(id, now);
  }

  async keyChanged(id: string): Promise<void> {
    this.keys.forget(id);
  }

  async limits(tenant: string): Promise<LimitsView> {
    const defaults = defaultLimits(this.env.TENANT_LIMITS);
    return { tenant, defaults, override: this.override, effective: effectiveLimits(defaults, this.override) };
  }

  async setLimits(tenant: string, override: TenantLimits | null): Promise<LimitsView> {
    this.override = override;
    if (override) await this.ctx.storage.put(OVERRIDE_KEY, override);
    else await this.ctx.storage.delete(OVERRIDE_KEY);
    return this.limits(tenant);
  }

  async admit(kind: 'request' | 'thread', key: string, now = Date.now()): Promise<AdmissionWithLimits> {
    const limits = this.effective();
    return { ...this.counters.admit(kind, key, limits, now), limits };
  }

  async acquireTurn(thread: string, key: string, now = Date.now()) {
    const limits = this.effective();
    return { ...this.counters.acquireTurn(thread, key, limits, now), limits };
  }

  async renewTurn(thread: string, now = Date.now()): Promise<void> {
    this.counters.renewTurn(thread, now);
  }

  async releaseTurn(thread: string): Promise<void> {
    this.counters.releaseTurn(thread);
  }

  async holdSpend(key: string, estimate: Spend, now = Date.now()): Promise<SpendDecision & { limits: TenantLimits }> {
    const limits = this.effective();
    return { ...this.counters.holdSpend(key, estimate, limits, now), limits };
  }

  async settleSpend(hold: string, key: string, spent: Spend | null, now = Date.now()): Promise<void> {
    this.counters.settleSpend(hold, key, spent, now);
  }

  // ---- webhooks (thread/webhooks) ----------------------------------------------------------

  async publishWebhookEvent(event: PublishedEvent, now = Date.now()): Promise<string[]> {
    return this.webhooks.outbox.enqueue(event, now);
  }

  async createWebhook(viewer: WebhookViewer, input: WebhookInput, now = Date.now()) {
    return this.webhooks.registry.create(viewer, input, now);
  }

  async listWebhooks(viewer: WebhookViewer) {
    return this.webhooks.registry.list(viewer);
  }

  async getWebhook(viewer: WebhookViewer, id: string) {
    return this.webhooks.registry.get(viewer, id);
  }

  async updateWebhook(viewer: WebhookViewer, id: string, patch: WebhookPatch) {
    return this.webhooks.registry.update(viewer, id, patch);
  }

  async deleteWebhook(viewer: WebhookViewer, id: string) {
    return this.webhooks.registry.remove(viewer, id);
  }

  async listWebhookDeliveries(viewer: WebhookViewer, id: string, page: { limit: number; before?: number }) {
    return this.webhooks.outbox.deliveries(viewer, id, page);
  }

  async replayWebhookDelivery(viewer: WebhookViewer, id: string, deliveryId: string, now = Date.now()) {
    return this.webhooks.outbox.replay(viewer, id, deliveryId, now);
  }

  async threadDeleted(threadId: string): Promise<void> {
    this.webhooks.registry.removeForThread(threadId);
  }

  /** Webhook deliveries due by `now` (tests move it); the alarm's part, callable on its own. */
  async deliverWebhooks(now = Date.now()): Promise<void> {
    await this.webhooks.deliverDue(now);
  }

  // ---- schedules that start threads (thread/schedules) ----------------------------------------

  async createSchedule(principal: Principal, input: TenantScheduleInput, now = Date.now()) {
    return this.schedules.create(principal, input, now);
  }

  async listSchedules(principal: Principal) {
    return this.schedules.list(principal);
  }

  async updateSchedule(principal: Principal, id: string, paused: boolean, now = Date.now()) {
    return this.schedules.pause(principal, id, paused, now);
  }

  async deleteSchedule(principal: Principal, id: string) {
    return this.schedules.remove(principal, id);
  }

  async fireSchedules(now = Date.now()): Promise<void> {
    await this.schedules.fireDue(now);
  }

  /** Each part runs what is due and sets the alarm again for its own next time. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    await this.schedules.fireDue(now);
    await this.webhooks.deliverDue(now);
  }
}
