/**
 * When a model provider retries (THR-4): which failures are transient, and how long to wait before
 * the next attempt (exponential backoff with jitter, or the server's own Retry-After, capped).
 */

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000 };

/** Rate limits and server errors pass; other 4xx mean the request itself is wrong and would fail again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait before retry number `attempt + 1`. Half the exponential delay is fixed and half random
 * ("equal jitter"): clients that failed together spread out, yet none retries immediately.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The server's requested wait in milliseconds, from `retry-after-ms` (OpenAI's precise variant) or
 * `Retry-After` (seconds or an HTTP date); null when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const precise = headers.get('retry-after-ms');
  if (precise !== null && precise.trim() !== '') {
    const ms = Number(precise);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The wait before the next attempt: the server's wish when it stated one, never beyond the cap. */
export function nextDelay(attempt: number, policy: RetryPolicy, serverWishMs: number | null): number {
  if (serverWishMs !== null) return Math.min(serverWishMs, policy.maxDelayMs);
  return backoffDelay(attempt, policy);
}
