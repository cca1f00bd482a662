/**
 * A thread's schedules: made through the API or installed from its agent's definition when the
 * thread is created, listed, paused, resumed and deleted, each a row of the thread's SQLite, and fired
 * from the thread's alarm (schedule-firing.ts). The thread's alarm is shared with its turn, effects,
 * child-wait caps and sidecar sweeps: the schedules set it for their soonest tick unless something
 * earlier holds it.
 */
import type { Registry } from '../../engine/registry/index.js';
import { agentScheduleTiming, nextTickAfter, timingProblem } from '../../engine/schedules/index.js';
import { fail, ok, type RpcResult, type RuntimeEnv, type ScheduleInput, type ScheduleView } from '../bindings/index.js';
import type { NewScheduleRow, ScheduleRows, SqliteThreadStore } from '../storage/index.js';
import { checkScheduleInput, invalid, MAX_THREAD_SCHEDULES, minIntervalSeconds } from './schedule-input.js';
import { scheduleView } from './schedule-views.js';

export interface ScheduleDesk {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  rows(): ScheduleRows;
  store(): SqliteThreadStore;
  /** The thread's secrets scrubbed from what a schedule keeps. */
  scrub(text: string): string;
}

/** Sets the alarm for `due` unless one is set already for earlier. */
export async function armAlarmFor(ctx: DurableObjectState, due: number): Promise<void> {
  const alarm = await ctx.storage.getAlarm();
  if (alarm === null || alarm > due) await ctx.storage.setAlarm(due);
}

export const scheduleNotFound = (id: string) =>
  fail<never>({ status: 404, code: 'schedule_not_found', message: `no schedule ${id} in this thread` });

/**
 * The alarm comes for the soonest active schedule, unless something earlier holds it; a terminated
 * thread fires nothing, so it is not woken for its schedules.
 */
export async function armSchedules(desk: ScheduleDesk): Promise<void> {
  if (typeof desk.store().info.terminatedAt === 'number') return;
  const due = desk.rows().nextDue();
  if (due !== null) await armAlarmFor(desk.ctx, due);
}

export async function createSchedule(
  desk: ScheduleDesk,
  subject: string,
  input: ScheduleInput,
  now = Date.now(),
): Promise<RpcResult<ScheduleView>> {
  const terminatedAt = desk.store().info.terminatedAt;
  if (typeof terminatedAt === 'number') {
    return fail({ status: 409, code: 'thread_terminated', message: 'a terminated thread takes no schedules' });
  }
  const checked = checkScheduleInput(input, now, minIntervalSeconds(desk.env));
  if (!checked.ok) return checked;
  const rows = desk.rows();
  if (rows.count() >= MAX_THREAD_SCHEDULES) {
    return fail(invalid('too_many_schedules', `a thread keeps at most ${MAX_THREAD_SCHEDULES} schedules`));
  }
  const row: NewScheduleRow = {
    ...checked.value,
    message: desk.scrub(checked.value.message),
    id: crypto.randomUUID(),
    source: 'api',
    createdBy: subject,
    start: null,
  };
  rows.insert(row);
  await armSchedules(desk);
  return ok(scheduleView(rows.get(row.id) ?? { ...row, ...EMPTY_HISTORY }));
}

const EMPTY_HISTORY = {
  lastTick: null,
  lastFiredAt: null,
  firedCount: 0,
  lastOutcome: null,
  lastThread: null,
  threadPending: false,
};

/**
 * The agent's schedules, installed in a thread being created (inside its creation's transaction).
 * One whose ticks are closer than the deployment's minimum is refused, naming it; a one-off already
 * past is not installed.
 */
export function installAgentSchedules(desk: ScheduleDesk, agentName: string, now = Date.now()): void {
  const agent = desk.registry.agent(agentName);
  for (const schedule of agent?.schedules ?? []) {
    const timing = agentScheduleTiming(schedule);
    if (timing.at !== null && timing.at < now) continue;
    const problem = timingProblem(timing, now, minIntervalSeconds(desk.env));
    if (problem) throw new Error(`agent "${agentName}" schedule "${schedule.name}": ${problem.message}`);
    desk.rows().insert({
      id: crypto.randomUUID(),
      name: schedule.name,
      source: 'agent',
      ...timing,
      message: schedule.message,
      missed: schedule.missed ?? 'run_once',
      onBusy: schedule.onBusy ?? null,
      paused: schedule.paused === true,
      createdAt: now,
      createdBy: null,
      nextAt: nextTickAfter(timing, now - 1),
      start: null,
    });
  }
}

export function listSchedules(desk: ScheduleDesk): { schedules: ScheduleView[] } {
  return { schedules: desk.rows().list().map(scheduleView) };
}

/**
 * Pauses or resumes a schedule. A resumed cron schedule is next due at its first tick after now:
 * the ticks it slept through are not fired. A resumed one-off keeps its time.
 */
export async function pauseSchedule(
  desk: ScheduleDesk,
  scheduleId: string,
  paused: boolean,
  now = Date.now(),
): Promise<RpcResult<ScheduleView>> {
  const rows = desk.rows();
  const row = rows.get(scheduleId);
  if (!row) return scheduleNotFound(scheduleId);
  const nextAt =
    row.cron === null ? row.nextAt : nextTickAfter({ cron: row.cron, at: null, timezone: row.timezone }, now);
  rows.setPaused(scheduleId, paused, nextAt);
  if (!paused) await armSchedules(desk);
  return ok(scheduleView(rows.get(scheduleId) ?? row));
}

export function deleteSchedule(desk: ScheduleDesk, scheduleId: string): RpcResult<ScheduleView> {
  const rows = desk.rows();
  const row = rows.get(scheduleId);
  if (!row || !rows.delete(scheduleId)) return scheduleNotFound(scheduleId);
  return ok(scheduleView(row));
}
