/**
 * When a schedule fires: a cron expression read by croner in an IANA time zone, or one instant. The
 * checks a schedule passes before it is kept (an expression that parses and fires at all, a zone
 * that exists, a one-off time that is a date and not past, ticks no closer together than the
 * minimum), each refusal naming its field, and the next tick after an instant.
 */
import { Cron } from 'croner';

export interface ScheduleTiming {
  /** A five-field (minute) or six-field (second) cron expression; null for a one-off. */
  cron: string | null;
  /** A one-off's instant, ms since the epoch; null for a cron schedule. */
  at: number | null;
  /** The IANA time zone the expression is read in. */
  timezone: string;
}

export interface ScheduleProblem {
  code: 'invalid_cron' | 'invalid_timezone' | 'invalid_at';
  field: 'cron' | 'timezone' | 'at';
  message: string;
}

/** The longest cron expression and zone name accepted: real ones are far shorter. */
export const MAX_CRON_CHARS = 120;
export const MAX_TIMEZONE_CHARS = 64;
/** How many upcoming ticks the minimum interval is checked over. */
const TICKS_CHECKED = 100;
/** A one-off further ahead than this is refused: a year number typed wrong, not a plan. */
const MAX_AHEAD_MS = 10 * 366 * 24 * 3600 * 1000;

/** Whether `timezone` names a zone this runtime's Intl knows. */
export function timezoneExists(timezone: string): boolean {
  if (timezone.length === 0 || timezone.length > MAX_TIMEZONE_CHARS) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The expression as croner reads it; throws on one that does not parse. */
function cronOf(cron: string, timezone: string): Cron {
  return new Cron(cron, { timezone, mode: '5-or-6-parts', paused: true });
}

/** The first tick strictly after `after`, or null when there is none (a one-off past, or no more). */
export function nextTickAfter(timing: ScheduleTiming, after: number): number | null {
  if (timing.cron === null) return timing.at !== null && timing.at > after ? timing.at : null;
  const next = cronOf(timing.cron, timing.timezone).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

/** The latest tick at or before `now`, not earlier than `from` (a tick known due): what a backlog collapses to. */
export function latestTickBy(timing: ScheduleTiming, from: number, now: number): number {
  if (timing.cron === null) return from;
  const cron = cronOf(timing.cron, timing.timezone);
  const [previous] = cron.previousRuns(1, new Date(now + 1));
  const latest = previous ? previous.getTime() : from;
  return latest >= from && latest <= now ? latest : from;
}

function cronProblem(cron: string, timezone: string, now: number, minIntervalSeconds: number): ScheduleProblem | null {
  const refuse = (message: string): ScheduleProblem => ({ code: 'invalid_cron', field: 'cron', message });
  if (cron.trim().length === 0 || cron.length > MAX_CRON_CHARS) {
    return refuse(`cron must be a cron expression of 1 to ${MAX_CRON_CHARS} characters`);
  }
  let ticks: Date[];
  try {
    ticks = cronOf(cron, timezone).nextRuns(TICKS_CHECKED, new Date(now));
  } catch (error) {
    return refuse(`cron "${cron}" does not parse: ${(error as Error).message}`);
  }
  if (ticks.length === 0) return refuse(`cron "${cron}" never fires`);
  for (let i = 1; i < ticks.length; i++) {
    const gap = ((ticks[i] as Date).getTime() - (ticks[i - 1] as Date).getTime()) / 1000;
    if (gap < minIntervalSeconds) {
      return refuse(
        `cron "${cron}" fires ${gap} s apart, more often than the minimum interval of ${minIntervalSeconds} s`,
      );
    }
  }
  return null;
}

function atProblem(at: number, now: number): ScheduleProblem | null {
  const refuse = (message: string): ScheduleProblem => ({ code: 'invalid_at', field: 'at', message });
  if (!Number.isFinite(at)) return refuse('at must be a date: ms since the epoch or an ISO 8601 string');
  if (at < now) return refuse(`at (${new Date(at).toISOString()}) is in the past`);
  if (at - now > MAX_AHEAD_MS) return refuse('at is more than ten years ahead');
  return null;
}

/** What is wrong with a schedule's timing, or null; `now` and the minimum are the caller's. */
export function timingProblem(timing: ScheduleTiming, now: number, minIntervalSeconds: number): ScheduleProblem | null {
  if (!timezoneExists(timing.timezone)) {
    return {
      code: 'invalid_timezone',
      field: 'timezone',
      message: `timezone "${timing.timezone.slice(0, MAX_TIMEZONE_CHARS)}" is not an IANA time zone (e.g. "Europe/Paris", "UTC")`,
    };
  }
  if ((timing.cron === null) === (timing.at === null)) {
    return { code: 'invalid_cron', field: 'cron', message: 'a schedule takes exactly one of cron and at' };
  }
  if (timing.cron !== null) return cronProblem(timing.cron, timing.timezone, now, minIntervalSeconds);
  return atProblem(timing.at as number, now);
}

/** A one-off's time as given (ms since the epoch, or an ISO 8601 string) as ms, NaN when it is no date. */
export function instantOf(at: number | string): number {
  if (typeof at === 'number') return Number.isFinite(at) ? Math.trunc(at) : Number.NaN;
  // Date.parse reads more than ISO 8601 on some engines: only the ISO shapes are taken.
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(at)) return Number.NaN;
  return Date.parse(at);
}
