/**
 * A tenant's thread-starting schedules, kept by its Tenant object (one per tenant) in its SQLite and
 * fired from its alarm: each tick starts a new thread of the schedule's agent, owned by the schedule's
 * maker, its first user message the schedule's. A tick is recorded with the id of the thread it starts
 * before the thread is asked to exist; until the thread answers, the row says its start is pending,
 * and the next alarm asks again with the same id. A thread that exists already answers 409, which
 * means the start was done: one tick starts one thread, whatever restarts in between. Its makers see
 * their own schedules; the tenant's admins see them all.
 */
import { dueTick, nextTickAfter } from '../../engine/schedules/index.js';
import { type Principal, roleAtLeast } from '../access/index.js';
import {
  type ApiError,
  fail,
  ok,
  type RpcResult,
  type RuntimeEnv,
  type TenantScheduleInput,
  type TenantScheduleView,
  threadStub,
} from '../bindings/index.js';
import type { ScheduleRow, ScheduleRows } from '../storage/index.js';
import { publishEvent } from '../webhooks/index.js';
import { checkScheduleInput, invalid, minIntervalSeconds } from './schedule-input.js';
import { type ThreadStart, tenantScheduleView, threadStartOf } from './schedule-views.js';
import { armAlarmFor } from './thread-schedules.js';

/** The most schedules one tenant keeps, and one maker of it. */
export const MAX_TENANT_SCHEDULES = 500;
export const MAX_SCHEDULES_PER_MAKER = 50;
const FIRES_PER_ALARM = 20;
/** How soon a thread start that got no answer is asked again. */
const PENDING_RETRY_MS = 5_000;

/** What the Tenant object lends: its rows, and its own count of thread starts against its limits. */
export interface TenantSchedulerHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  rows: ScheduleRows;
  /** Counts a thread start of `subject` and a turn slot for `threadId`; a refusal's code, or null. */
  admitStart(subject: string, threadId: string, now: number): string | null;
}

const notFound = (id: string): ApiError => ({ status: 404, code: 'schedule_not_found', message: `no schedule ${id}` });

export class TenantScheduler {
  constructor(private readonly host: TenantSchedulerHost) {}

  /** Whether `principal` sees the row: its maker, or an admin of the tenant. */
  private sees(principal: Principal, row: ScheduleRow): boolean {
    return row.createdBy === principal.subject || roleAtLeast(principal.role, 'admin');
  }

  async create(
    principal: Principal,
    input: TenantScheduleInput,
    now = Date.now(),
  ): Promise<RpcResult<TenantScheduleView>> {
    if (!roleAtLeast(principal.role, 'member')) {
      return fail({ status: 403, code: 'forbidden', message: `the ${principal.role} role may not start threads` });
    }
    const checked = checkScheduleInput(input, now, minIntervalSeconds(this.host.env));
    if (!checked.ok) return checked;
    const { rows } = this.host;
    if (
      rows.count() >= MAX_TENANT_SCHEDULES ||
      rows.count({ createdBy: principal.subject }) >= MAX_SCHEDULES_PER_MAKER
    ) {
      return fail(
        invalid(
          'too_many_schedules',
          `at most ${MAX_SCHEDULES_PER_MAKER} schedules per maker and ${MAX_TENANT_SCHEDULES} per tenant`,
        ),
      );
    }
    const start: ThreadStart = {
      agent: input.agent,
      tenant: principal.tenant,
      subject: principal.subject,
      tags: input.tags ?? [],
      shared: input.shared === true,
    };
    const id = crypto.randomUUID();
    rows.insert({ ...checked.value, id, source: 'api', createdBy: principal.subject, start: { ...start } });
    await this.arm();
    return ok(tenantScheduleView(rows.get(id) as ScheduleRow));
  }

  list(principal: Principal): { schedules: TenantScheduleView[] } {
    return {
      schedules: this.host.rows
        .list()
        .filter((row) => this.sees(principal, row))
        .map(tenantScheduleView),
    };
  }

  async pause(
    principal: Principal,
    id: string,
    paused: boolean,
    now = Date.now(),
  ): Promise<RpcResult<TenantScheduleView>> {
    const { rows } = this.host;
    const row = rows.get(id);
    if (!row || !this.sees(principal, row)) return fail(notFound(id));
    const nextAt =
      row.cron === null ? row.nextAt : nextTickAfter({ cron: row.cron, at: null, timezone: row.timezone }, now);
    rows.setPaused(id, paused, nextAt);
    if (!paused) await this.arm();
    return ok(tenantScheduleView(rows.get(id) ?? row));
  }

  remove(principal: Principal, id: string): RpcResult<TenantScheduleView> {
    const { rows } = this.host;
    const row = rows.get(id);
    if (!row || !this.sees(principal, row) || !rows.delete(id)) return fail(notFound(id));
    return ok(tenantScheduleView(row));
  }

  /** The alarm comes for the soonest tick, or shortly for a thread start still pending. */
  async arm(now = Date.now()): Promise<void> {
    const next = this.host.rows.nextDue();
    const retry = this.host.rows.pending().length > 0 ? now + PENDING_RETRY_MS : null;
    const due = next === null ? retry : retry === null ? next : Math.min(next, retry);
    if (due !== null) await armAlarmFor(this.host.ctx, due);
  }

  /** Starts the threads of the ticks due by `now` (and those still pending); then arms the alarm again. */
  async fireDue(now = Date.now()): Promise<void> {
    const { rows } = this.host;
    // Never throws: the webhooks' deliveries run after this in the same alarm.
    for (const row of rows.pending()) {
      try {
        await this.startThread(row, row.lastThread as string, row.lastTick as number);
      } catch (error) {
        console.error(`tenant schedule ${row.id}: starting its thread failed, tried again shortly:`, error);
      }
    }
    for (const row of rows.due(now).slice(0, FIRES_PER_ALARM)) {
      try {
        await this.fireOne(row, now);
      } catch (error) {
        console.error(`tenant schedule ${row.id} failed to fire:`, error);
      }
    }
    await this.arm(now);
  }

  private async fireOne(row: ScheduleRow, now: number): Promise<void> {
    const timing = { cron: row.cron, at: row.at, timezone: row.timezone };
    const tick = dueTick(timing, row.nextAt as number, now, row.missed);
    if (!tick) return;
    const record = { tick: tick.tick, nextAt: tick.nextAt, at: now };
    if (!tick.fire) {
      this.host.rows.markTick(row.id, { ...record, outcome: 'skipped: missed', fired: false });
      return;
    }
    const threadId = crypto.randomUUID();
    const refused = this.host.admitStart(threadStartOf(row).subject, threadId, now);
    if (refused) {
      this.host.rows.markTick(row.id, { ...record, outcome: `refused: ${refused}`, fired: false });
      return;
    }
    // Recorded first, with the thread's id: a restart before the thread answers asks again with it.
    if (!this.host.rows.markTick(row.id, { ...record, outcome: 'starting', fired: true, thread: threadId })) {
      return this.host.rows.advance(row.id, tick.nextAt);
    }
    await this.startThread(row, threadId, tick.tick);
  }

  /** Asks the thread to exist; 409 `thread_exists` means an earlier attempt did it. */
  private async startThread(row: ScheduleRow, threadId: string, tick: number): Promise<void> {
    const start = threadStartOf(row);
    const created = await threadStub(this.host.env, threadId).create({
      id: threadId,
      agent: start.agent,
      tenant: start.tenant,
      userId: start.subject,
      ...(start.shared ? { shared: true } : {}),
      messages: [{ role: 'user', content: row.message, metadata: { schedule_id: row.id, tick } }],
      variables: {},
      tags: start.tags,
      headless: false,
    });
    const answer = created as RpcResult<unknown>;
    const code = answer.ok ? null : answer.error.code;
    const done = code === null || code === 'thread_exists';
    // A refusal (the agent gone, variables it now requires) is final: the tick is not tried again.
    this.host.rows.settlePending(row.id, threadId, done ? 'fired' : `failed: ${code}`);
    if (!answer.ok) return;
    publishEvent(this.host.ctx, this.host.env, {
      type: 'schedule.fired',
      tenant: start.tenant,
      owner: start.subject,
      threadId,
      data: { schedule_id: row.id, tick, thread_id: threadId },
    });
  }
}
