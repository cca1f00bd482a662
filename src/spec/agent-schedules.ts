/**
 * An agent's schedules (`defineAgent({ schedules })`): messages posted to each thread of the agent
 * on a cron expression in a time zone, or once at a given time. Each new thread of the agent gets its
 * own copy, which its owner can list, pause and delete like the schedules made through the API. The
 * shape is checked here; the cron expression and the zone are read at startup by the registry, which
 * refuses one that does not parse, a zone that does not exist or a schedule that never fires.
 */
import { DefinitionError } from './definition-error.js';
import { isOnBusy, ON_BUSY_VALUES, type OnBusy } from './types/index.js';

export interface AgentSchedule {
  /** Names the schedule within the agent: letters, digits, `_` and `-`. */
  name: string;
  /** A cron expression: five fields (minute precision) or six (the first is seconds). */
  cron?: string;
  /** A one-off time (ms since the epoch, or ISO 8601); a thread created after it does not get it. */
  at?: number | string;
  /** The IANA time zone the expression is read in; default `UTC`. */
  timezone?: string;
  /** The user message posted when it fires. */
  message: string;
  /** A tick missed while the runtime was down: fired once on wake-up (`run_once`, the default) or skipped. */
  missed?: 'run_once' | 'skip';
  /** What the message does if a turn is running when it fires; default the agent's. */
  onBusy?: OnBusy;
  /** Installed paused: it fires once resumed through the API. */
  paused?: boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The most schedules one agent may declare. */
const MAX_AGENT_SCHEDULES = 20;

function checkOne(where: string, schedule: AgentSchedule): AgentSchedule {
  const label = `${where} schedule "${String(schedule?.name)}"`;
  if (typeof schedule?.name !== 'string' || !NAME.test(schedule.name)) {
    throw new DefinitionError(`${where}: each schedule needs a name of letters, digits, _ and - (at most 64)`);
  }
  if ((schedule.cron === undefined) === (schedule.at === undefined)) {
    throw new DefinitionError(`${label}: give exactly one of cron and at`);
  }
  if (typeof schedule.message !== 'string' || schedule.message.trim() === '') {
    throw new DefinitionError(`${label}: message must be a non-empty string`);
  }
  if (schedule.missed !== undefined && schedule.missed !== 'run_once' && schedule.missed !== 'skip') {
    throw new DefinitionError(`${label}: missed must be "run_once" or "skip"`);
  }
  if (schedule.onBusy !== undefined && !isOnBusy(schedule.onBusy)) {
    throw new DefinitionError(`${label}: onBusy must be one of ${ON_BUSY_VALUES.join(', ')}`);
  }
  return { ...schedule, timezone: schedule.timezone ?? 'UTC', missed: schedule.missed ?? 'run_once' };
}

/** The agent's schedules with their defaults, or a DefinitionError naming the one at fault. */
export function checkAgentSchedules(where: string, schedules: AgentSchedule[] | undefined): AgentSchedule[] {
  if (schedules === undefined) return [];
  if (!Array.isArray(schedules)) throw new DefinitionError(`${where}: schedules must be an array`);
  if (schedules.length > MAX_AGENT_SCHEDULES) {
    throw new DefinitionError(`${where}: at most ${MAX_AGENT_SCHEDULES} schedules`);
  }
  const checked = schedules.map((schedule) => checkOne(where, schedule));
  const names = new Set<string>();
  for (const { name } of checked) {
    if (names.has(name)) throw new DefinitionError(`${where}: two schedules are named "${name}"`);
    names.add(name);
  }
  return checked;
}
