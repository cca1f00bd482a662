/**
 * Retry timing for model providers (THR-4): which failures are transient, how long to wait before
 * the next attempt (exponential backoff with jitter, or the server's own Retry-After), and an
 * abortable sleep so a stopped thread never sits out a backoff.
 */

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000 };

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

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

/** What an aborted operation rejects with: the signal's reason, as fetch does. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Settles like `promise`, but rejects with the abort reason as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // The abandoned promise may still reject; it must not surface as unhandled.
    promise.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Waits `ms`, or rejects with the abort reason as soon as `signal` aborts: `AbortSignal.timeout` is the
 * timer and `AbortSignal.any` joins it to the caller's signal. (In Node the timeout's timer does not
 * keep the process alive; in a Worker the request does.)
 */
export const sleep: Sleep = (ms, signal) => {
  // Node's AbortSignal.timeout takes whole milliseconds only (`retry-after-ms` may carry a fraction).
  const timer = AbortSignal.timeout(Math.max(0, Math.ceil(ms)));
  const either = signal ? AbortSignal.any([timer, signal]) : timer;
  return new Promise<void>((resolve, reject) => {
    // The caller's signal decides, not the reason: a caller may abort with a TimeoutError of its own.
    const settle = () => (signal?.aborted ? reject(abortReason(signal)) : resolve());
    if (either.aborted) settle();
    else either.addEventListener('abort', settle, { once: true });
  });
};
