/**
 * One model step with retries (THR-4), the same for every provider: an attempt either answers,
 * fails for good (thrown), or fails transiently before any byte of its stream arrived, and is then
 * tried again after a backoff or the server's `Retry-After`, up to the policy's limit.
 */
import { type ModelResponse, ProviderError } from '../../engine/ports/index.js';
import { ATTR, activeSpan, spanNames } from '../../engine/tracing/index.js';
import { abortable, abortReason, sleep as realSleep, type Sleep } from './abortable.js';
import { DEFAULT_RETRY_POLICY, nextDelay, type RetryPolicy } from './retry-policy.js';

export type Attempt =
  | { ok: true; response: ModelResponse }
  | { ok: false; error: ProviderError; retryAfterMs: number | null };

/** How a provider retries; every field has a default. */
export interface RetryOptions {
  /** Attempts after the first one for transient failures. Default 3. */
  maxRetries?: number;
  /** Default 500. */
  baseDelayMs?: number;
  /** Caps both the backoff and the delay a server asks for. Default 8000. */
  maxDelayMs?: number;
  sleep?: Sleep;
}

/** Whether anything of an attempt's answer reached the client; set by the reader as it goes. */
export interface ReadProgress {
  consumed: boolean;
}

export async function withRetries(
  options: RetryOptions,
  signal: AbortSignal | undefined,
  attempt: () => Promise<Attempt>,
): Promise<ModelResponse> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  const sleep = options.sleep ?? realSleep;
  for (let tries = 0; ; tries++) {
    if (signal?.aborted) throw abortReason(signal);
    const outcome = await attempt();
    if (outcome.ok) return outcome.response;
    if (tries >= policy.maxRetries) {
      const { message, status } = outcome.error;
      throw new ProviderError(`${message} (gave up after ${tries + 1} attempts)`, status, true);
    }
    // TRACE-3: the wait before the next attempt is a span of the step, failed with what this attempt met.
    const span = activeSpan()
      .child(spanNames.retry, 'internal', { [ATTR.attempt]: tries + 1 })
      .set('http.response.status_code', outcome.error.status)
      .fail(outcome.error, outcome.error.status ? String(outcome.error.status) : 'network');
    try {
      await abortable(sleep(nextDelay(tries, policy, outcome.retryAfterMs), signal), signal);
    } finally {
      span.end();
    }
  }
}

/**
 * Reads an answer that has begun to arrive. A retryable failure before anything of it reached the
 * client is returned for another attempt; once something did, a retry would repeat it, so it is thrown.
 */
export async function readAttempt(
  signal: AbortSignal | undefined,
  read: (progress: ReadProgress) => Promise<ModelResponse>,
): Promise<Attempt> {
  const progress: ReadProgress = { consumed: false };
  try {
    return { ok: true, response: await read(progress) };
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (!progress.consumed && error instanceof ProviderError && error.retryable) {
      return { ok: false, error, retryAfterMs: null };
    }
    throw error;
  }
}
