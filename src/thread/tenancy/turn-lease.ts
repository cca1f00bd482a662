/**
 * A thread's turn slot as the thread keeps it (IDN-5): the Worker took it when a message was posted
 * or the thread started; while the turn runs the thread renews it, at most once every
 * RENEW_EVERY_MS, so it does not expire under a long turn; when the turn ends (not merely waiting
 * for an answer) with nothing queued, the thread gives it back. A thread that dies without giving it
 * back loses it when its lease expires (tenant-counters.ts: TURN_LEASE_MS).
 *
 * While this isolate's copy of the tenant's limits (limits-cache.ts) says no running-turns limit
 * applies, the Worker took no slot, so there is nothing to renew or give back and the thread makes
 * no call to the tenant's object. The one slot this can leave behind (taken under a limit that was
 * lifted within the copy's few seconds) expires with its lease, like a dead thread's.
 */
import { DEFAULT_TENANT } from '../access/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { knownUnlimited, releaseTurnSlot } from './admission.js';
import { tenantStub } from './limits-cache.js';
import { TURN_LEASE_MS } from './tenant-counters.js';

/** A fifth of the lease: four renewals may be missed before a running turn's slot expires. */
const RENEW_EVERY_MS = TURN_LEASE_MS / 5;

/** The thread a lease belongs to. */
export interface LeaseHolder {
  tenant: string;
  id: string;
}

/** The holder of a thread's record: its tenant (the default tenant's for threads made before tenants). */
export function leaseHolder(record: { id: string; tenant?: string } | null): LeaseHolder | null {
  return record ? { tenant: record.tenant ?? DEFAULT_TENANT, id: record.id } : null;
}

export class TurnLease {
  private renewedAt = 0;

  constructor(
    private readonly env: RuntimeEnv,
    private readonly ctx: DurableObjectState,
    private readonly holder: () => LeaseHolder | null,
  ) {}

  /** The turn is running: renews the slot if the last renewal is old enough. */
  alive(now = Date.now()): void {
    if (!this.env.TENANTS || now - this.renewedAt < RENEW_EVERY_MS) return;
    const holder = this.holder();
    if (!holder || knownUnlimited(holder.tenant, 'concurrentTurns')) return;
    this.renewedAt = now;
    this.ctx.waitUntil(this.quietly(tenantStub(this.env, holder.tenant)?.renewTurn(holder.id)));
  }

  /** The turn ended: its slot goes back unless the thread waits for an answer or has messages queued. */
  ended(keepsSlot: boolean): void {
    this.renewedAt = 0;
    const holder = this.holder();
    if (!this.env.TENANTS || keepsSlot || !holder || knownUnlimited(holder.tenant, 'concurrentTurns')) return;
    this.ctx.waitUntil(this.quietly(releaseTurnSlot(this.env, holder.tenant, holder.id)));
  }

  /** A slot the tenant's object could not be told about expires with its lease: nothing more to do. */
  private async quietly(call: Promise<void> | undefined): Promise<void> {
    try {
      await call;
    } catch (error) {
      console.error(`turn slot: ${(error as Error).message}`);
    }
  }
}
