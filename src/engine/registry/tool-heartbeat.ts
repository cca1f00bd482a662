/**
 * How often a long tool call says it still runs (BEAT-1), set in `createRuntime({ toolHeartbeatMs })`.
 * Thirty seconds by default: often enough that nobody watching takes a working call for a hung one,
 * rare enough that a call of the longest timeout (ten minutes) adds twenty frames. Tests set a few
 * milliseconds so that they see heartbeats without waiting half a minute.
 */
import { DefinitionError } from '../../spec/internal.js';

export const DEFAULT_TOOL_HEARTBEAT_MS = 30_000;

/** The interval, its default filled in; anything but a positive whole number is a definition error. */
export function toolHeartbeatInterval(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TOOL_HEARTBEAT_MS;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new DefinitionError(`toolHeartbeatMs must be a positive whole number of milliseconds, not ${String(value)}`);
  }
  return value;
}
