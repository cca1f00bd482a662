/**
 * Schedules (the Schedules section of docs/automation.md): a thread's own, kept in its SQLite and
 * fired from its alarm as messages through its inbox, and a tenant's, kept by the Tenant object and
 * fired from its alarm as new threads. The timing itself is engine/schedules'.
 */
export { type FiringDesk, fireDueSchedules } from './schedule-firing.js';
export {
  checkScheduleInput,
  DEFAULT_MIN_INTERVAL_SECONDS,
  MAX_SCHEDULE_MESSAGE_CHARS,
  MAX_THREAD_SCHEDULES,
  minIntervalSeconds,
} from './schedule-input.js';
export {
  MAX_SCHEDULES_PER_MAKER,
  MAX_TENANT_SCHEDULES,
  TenantScheduler,
  type TenantSchedulerHost,
} from './tenant-scheduler.js';
export {
  armSchedules,
  createSchedule,
  deleteSchedule,
  installAgentSchedules,
  listSchedules,
  pauseSchedule,
  type ScheduleDesk,
} from './thread-schedules.js';
