/**
 * When a failed delivery is tried again (WH-4): the Standard Webhooks schedule, at once, then after
 * 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours and 10 hours (about 27.6 hours in
 * all), each wait moved by up to 20 % either way so that endpoints coming back from an outage are
 * not hit by every sender at the same second. Which answers are worth another try is here too.
 */

/** The wait before each attempt, in ms: the first is at once. */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** Attempts a delivery gets before it fails for good. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** How far a wait may move either way. */
export const JITTER = 0.2;

/**
 * When the attempt after `attempts` failed ones is due, or null when none is left. `random` is in
 * [0, 1): 0.5 keeps the schedule's own wait.
 */
export function nextAttemptAt(attempts: number, now: number, random: number = Math.random()): number | null {
  const delay = RETRY_DELAYS_MS[attempts];
  if (delay === undefined) return null;
  return now + Math.round(delay * (1 - JITTER + 2 * JITTER * random));
}

/**
 * Whether an answer with this status ends the delivery at once: a 4xx says the request itself is
 * refused and would be refused again, except 408 (timeout) and 429 (too many requests), which ask
 * for a later try.
 */
export function finalRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}
