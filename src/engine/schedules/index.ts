/**
 * Schedules' timing, pure: cron expressions in IANA time zones (croner), one-off instants, the checks
 * a schedule passes before it is kept (each refusal naming its field), and which tick is due when an
 * alarm runs, missed or on time. Threads keep and fire schedules (thread/schedules); this room only
 * reads time.
 */
export { agentScheduleTiming, checkAgentScheduleTimings } from './agent-schedule-checks.js';
export { type DueTick, dueTick, MISSED_GRACE_MS, MISSED_POLICIES, type MissedPolicy } from './due-ticks.js';
export {
  instantOf,
  MAX_CRON_CHARS,
  MAX_TIMEZONE_CHARS,
  nextTickAfter,
  type ScheduleProblem,
  type ScheduleTiming,
  timezoneExists,
  timingProblem,
} from './schedule-timing.js';
