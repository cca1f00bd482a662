/**
 * A schedule a caller asks for, checked where it is kept (the thread, or the Tenant object), whatever
 * checked it before: exactly one of cron and at, an expression that parses and fires no more often
 * than the deployment's minimum (SCHEDULE_MIN_INTERVAL_SECONDS, default 60), a zone that exists, a
 * one-off time that is a date and not past, a known `missed` and `on_busy`, a message within bounds.
 * Each refusal is a 400 naming its field, and nothing is stored.
 */
import { instantOf, MISSED_POLICIES, nextTickAfter, timingProblem } from '../../engine/schedules/index.js';
import { isOnBusy, ON_BUSY_VALUES } from '../../spec/internal.js';
import { type ApiError, fail, ok, type RpcResult, type RuntimeEnv, type ScheduleInput } from '../bindings/index.js';
import type { NewScheduleRow } from '../storage/index.js';

/** The default minimum number of seconds between two ticks of one schedule. */
export const DEFAULT_MIN_INTERVAL_SECONDS = 60;
/** The longest message a schedule posts. */
export const MAX_SCHEDULE_MESSAGE_CHARS = 32_000;
/** The most schedules one thread keeps (its agent's included). */
export const MAX_THREAD_SCHEDULES = 50;
const NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.:-]{0,99}$/u;

/** The deployment's minimum interval in seconds: SCHEDULE_MIN_INTERVAL_SECONDS when it is a positive number. */
export function minIntervalSeconds(env: Pick<RuntimeEnv, 'SCHEDULE_MIN_INTERVAL_SECONDS'>): number {
  const value = Number(env.SCHEDULE_MIN_INTERVAL_SECONDS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_MIN_INTERVAL_SECONDS;
}

export const invalid = (code: string, message: string): ApiError => ({ status: 400, code, message });

function shapeProblem(input: ScheduleInput): ApiError | null {
  if (typeof input.message !== 'string' || input.message.trim() === '') {
    return invalid('invalid_request', 'message must be a non-empty string');
  }
  if (input.message.length > MAX_SCHEDULE_MESSAGE_CHARS) {
    return invalid('invalid_request', `message must be at most ${MAX_SCHEDULE_MESSAGE_CHARS} characters`);
  }
  if (input.name !== undefined && (typeof input.name !== 'string' || !NAME.test(input.name))) {
    return invalid('invalid_request', 'name must be 1 to 100 letters, digits, spaces and _ . : -');
  }
  if (input.missed !== undefined && !(MISSED_POLICIES as readonly unknown[]).includes(input.missed)) {
    return invalid('invalid_missed', `missed must be one of ${MISSED_POLICIES.join(', ')}`);
  }
  if (input.on_busy !== undefined && !isOnBusy(input.on_busy)) {
    return invalid('invalid_on_busy', `on_busy must be one of ${ON_BUSY_VALUES.join(', ')}`);
  }
  return null;
}

/** What a row of a checked schedule holds, its first tick computed from `now`. */
type CheckedSchedule = Omit<NewScheduleRow, 'id' | 'source' | 'createdBy' | 'start'>;

/** The schedule as it will be kept, or its 400. `now` is the clock's; tests move it. */
export function checkScheduleInput(input: ScheduleInput, now: number, minSeconds: number): RpcResult<CheckedSchedule> {
  const shape = shapeProblem(input);
  if (shape) return fail(shape);
  if (input.cron !== undefined && input.at !== undefined) {
    return fail(invalid('invalid_cron', 'give exactly one of cron and at, not both'));
  }
  if (input.cron === undefined && input.at === undefined) {
    return fail(invalid('invalid_cron', 'give a cron expression (cron) or a one-off time (at)'));
  }
  const at = input.at === undefined ? null : instantOf(input.at);
  const cron = typeof input.cron === 'string' ? input.cron.trim() : input.cron === undefined ? null : '';
  const timing = { cron, at, timezone: input.timezone ?? 'UTC' };
  const problem = timingProblem(timing, now, minSeconds);
  if (problem) return fail(invalid(problem.code, problem.message));
  return ok({
    name: input.name ?? null,
    cron,
    at,
    timezone: timing.timezone,
    message: input.message,
    missed: input.missed === 'skip' ? 'skip' : 'run_once',
    onBusy: input.on_busy ?? null,
    paused: input.paused === true,
    createdAt: now,
    nextAt: nextTickAfter(timing, now - 1),
  });
}
