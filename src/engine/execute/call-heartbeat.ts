/**
 * A long call made visible (BEAT-1): while a call runs past each interval (30 s unless
 * `createRuntime({ toolHeartbeatMs })` says otherwise), the thread hears how long it has run and
 * when it will be cut off, as a `tool_running` frame and a log line
 * `running name=<tool> elapsed=<s>s/<timeout>s`. Without it a call of several minutes looks the same
 * as a hung one. The heartbeat is one interval timer per call, stopped in the same `finally` that
 * clears the call's timeout, so it ends with the call however the call ends (returned, failed,
 * paused, stopped, timed out) and no timer outlives it.
 */

/** Seconds, whole, as the log line shows them. */
function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

/** The log line of one heartbeat. */
export function runningLine(name: string, elapsedMs: number, timeoutMs: number): string {
  return `running name=${name} elapsed=${seconds(elapsedMs)}s/${seconds(timeoutMs)}s`;
}

/**
 * Calls `beat` with the time since now every `intervalMs` until the returned stop is called. An
 * interval of 0 or less beats never.
 */
export function startHeartbeat(intervalMs: number, now: () => number, beat: (elapsedMs: number) => void): () => void {
  if (!(intervalMs > 0)) return () => {};
  const startedAt = now();
  const timer = setInterval(() => beat(now() - startedAt), intervalMs);
  return () => clearInterval(timer);
}
