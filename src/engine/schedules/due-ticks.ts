/**
 * What a schedule does when its alarm runs: the tick it fires for, whether that tick was missed, and
 * its next tick. Ticks that came due while nothing ran (the runtime down, the object evicted with no
 * alarm) collapse into the latest of them: a schedule never fires twice to catch up. The latest tick
 * counts as missed when the alarm runs it more than MISSED_GRACE_MS late; a missed tick fires once
 * (`run_once`) or is skipped (`skip`), as the schedule says.
 */
import { latestTickBy, nextTickAfter, type ScheduleTiming } from './schedule-timing.js';

export type MissedPolicy = 'run_once' | 'skip';
export const MISSED_POLICIES: readonly MissedPolicy[] = ['run_once', 'skip'];

/** How late a tick may run and still count as on time. */
export const MISSED_GRACE_MS = 60_000;

export interface DueTick {
  /** The tick, ms since the epoch: the schedule's key for "fired once". */
  tick: number;
  /** Later than the grace allows. */
  missed: boolean;
  /** Whether earlier ticks came due unrun and were folded into this one. */
  collapsed: boolean;
  /** Fire now: on time, or missed under `run_once`. */
  fire: boolean;
  /** The tick after this one, or null when the schedule has no more (a one-off). */
  nextAt: number | null;
}

/** The tick due by `now` of a schedule whose next tick is `nextAt`, or null when none is due yet. */
export function dueTick(
  timing: ScheduleTiming,
  nextAt: number,
  now: number,
  missedPolicy: MissedPolicy,
): DueTick | null {
  if (nextAt > now) return null;
  const tick = latestTickBy(timing, nextAt, now);
  const missed = now - tick > MISSED_GRACE_MS;
  return {
    tick,
    missed,
    collapsed: tick > nextAt,
    fire: !missed || missedPolicy === 'run_once',
    nextAt: timing.cron === null ? null : nextTickAfter(timing, Math.max(tick, now)),
  };
}
