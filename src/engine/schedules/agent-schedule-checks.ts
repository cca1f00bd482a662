/**
 * An agent's schedules read at startup (the registry calls this): a cron expression that does not
 * parse or never fires, a zone that does not exist or a one-off time that is no date stops the
 * Worker with a DefinitionError naming the agent and the schedule. The minimum interval between
 * ticks is the deployment's (SCHEDULE_MIN_INTERVAL_SECONDS), known only once a thread is created, so
 * it is checked there.
 */
import type { AgentDefinition, AgentSchedule } from '../../spec/index.js';
import { DefinitionError } from '../../spec/internal.js';
import { instantOf, type ScheduleTiming, timingProblem } from './schedule-timing.js';

/** The timing of an agent's schedule, its one-off time read. */
export function agentScheduleTiming(schedule: AgentSchedule): ScheduleTiming {
  return {
    cron: schedule.cron ?? null,
    at: schedule.at === undefined ? null : instantOf(schedule.at),
    timezone: schedule.timezone ?? 'UTC',
  };
}

export function checkAgentScheduleTimings(agent: AgentDefinition): void {
  for (const schedule of agent.schedules) {
    const timing = agentScheduleTiming(schedule);
    // A one-off is checked as a date only: whether it is past depends on when a thread is created.
    const problem =
      timing.at !== null
        ? Number.isNaN(timing.at)
          ? { message: 'at must be ms since the epoch or an ISO 8601 date' }
          : null
        : timingProblem(timing, Date.now(), 0);
    if (problem) throw new DefinitionError(`agent "${agent.name}" schedule "${schedule.name}": ${problem.message}`);
  }
}
