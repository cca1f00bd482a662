/**
 * Schedules as the API shows them: a thread's own, and a tenant's thread-starting ones with the
 * thread start they make.
 */
import { isOnBusy } from '../../spec/internal.js';
import type { ScheduleView, TenantScheduleView } from '../bindings/index.js';
import type { ScheduleRow } from '../storage/index.js';

export function scheduleView(row: ScheduleRow): ScheduleView {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    cron: row.cron,
    at: row.at,
    timezone: row.timezone,
    message: row.message,
    missed: row.missed,
    on_busy: isOnBusy(row.onBusy) ? row.onBusy : null,
    paused: row.paused,
    next_at: row.nextAt,
    last_tick: row.lastTick,
    last_fired_at: row.lastFiredAt,
    fired_count: row.firedCount,
    last_outcome: row.lastOutcome,
    created_at: row.createdAt,
    created_by: row.createdBy,
  };
}

/** What a tenant schedule's row keeps of the thread each tick starts. */
export interface ThreadStart {
  agent: string;
  /** The maker: the thread's owner. */
  tenant: string;
  subject: string;
  tags: string[];
  shared: boolean;
}

export function threadStartOf(row: ScheduleRow): ThreadStart {
  const start = (row.start ?? {}) as Partial<ThreadStart>;
  return {
    agent: String(start.agent ?? ''),
    tenant: String(start.tenant ?? ''),
    subject: String(start.subject ?? ''),
    tags: Array.isArray(start.tags) ? start.tags.map(String) : [],
    shared: start.shared === true,
  };
}

export function tenantScheduleView(row: ScheduleRow): TenantScheduleView {
  const start = threadStartOf(row);
  return {
    ...scheduleView(row),
    agent: start.agent,
    tags: start.tags,
    shared: start.shared,
    last_thread_id: row.lastThread,
  };
}
