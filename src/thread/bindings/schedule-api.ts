/**
 * Schedules across RPC: what a caller asks for (the API's body, checked again where it is kept), and
 * how a schedule is shown, a thread's own and a tenant's thread-starting one alike. Times are ms since
 * the epoch.
 */
import type { OnBusy } from '../../spec/index.js';

/** A new schedule, as `POST .../schedules` takes it (snake_case, like the HTTP body). */
export interface ScheduleInput {
  name?: string;
  /** Exactly one of cron and at. */
  cron?: string;
  at?: number | string;
  timezone?: string;
  message: string;
  /** `run_once` or `skip`; any other value is refused where the schedule is kept. */
  missed?: string;
  /** An OnBusy value; any other is refused (`invalid_on_busy`) where the schedule is kept. */
  on_busy?: string;
  paused?: boolean;
}

/** A tenant schedule: each tick starts a new thread of `agent`, owned by whoever made the schedule. */
export interface TenantScheduleInput extends ScheduleInput {
  agent: string;
  tags?: string[];
  /** The threads it starts are visible to the maker's whole tenant. */
  shared?: boolean;
}

export interface ScheduleView {
  id: string;
  name: string | null;
  /** `agent`: from the agent's definition; `api`: made through the API. */
  source: 'agent' | 'api';
  cron: string | null;
  at: number | null;
  timezone: string;
  message: string;
  missed: 'run_once' | 'skip';
  on_busy: OnBusy | null;
  paused: boolean;
  /** The next tick it fires for; null once a one-off has fired (or a paused one-off's time). */
  next_at: number | null;
  last_tick: number | null;
  last_fired_at: number | null;
  fired_count: number;
  /** What the last tick did: `fired`, `skipped: missed`, `refused: <code>`, `failed: <code>`. */
  last_outcome: string | null;
  created_at: number;
  created_by: string | null;
}

export interface TenantScheduleView extends ScheduleView {
  agent: string;
  tags: string[];
  shared: boolean;
  /** The thread its last tick started. */
  last_thread_id: string | null;
}
