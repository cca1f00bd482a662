/**
 * The rows of the calls-in-progress panel (call-activity.ts) as plain text, apart from the DOM so
 * that what the panel says can be checked anywhere: a call's arguments as the model types them, and
 * how long a call running past 30 s has run of its timeout.
 */
import type { CallActivity } from '../../client/index.js';
import { duration } from './format.js';

/** One row of the panel, as text. */
export interface ActivityRow {
  id: string;
  kind: 'typing' | 'running';
  title: string;
  /** The arguments so far, or the time run of the timeout. */
  detail: string;
}

/** The rows the activity shows: calls being typed first, then calls running, each in arrival order. */
export function activityRows(activity: CallActivity): ActivityRow[] {
  const typing = Object.entries(activity.streamingCalls).map(
    ([id, call]): ActivityRow => ({
      id,
      kind: 'typing',
      title: `${call.name || 'tool'} · arguments streaming`,
      detail: call.arguments_text,
    }),
  );
  const running = Object.entries(activity.runningCalls).map(
    ([id, call]): ActivityRow => ({
      id,
      kind: 'running',
      title: `${call.name} · running`,
      detail: `running for ${duration(call.elapsed_ms)} of its ${duration(call.timeout_ms)} limit`,
    }),
  );
  return [...typing, ...running];
}
