/**
 * One model step with retries (THR-4), the same for every HTTP provider: an attempt either answers,
 * fails for good (thrown), or fails transiently before any byte of its stream arrived, and is then
 * tried again after a backoff or the server's `Retry-After`, up to the policy's limit. The API key is
 * never part of an error that leaves the provider.
 */
import { type ModelResponse, ProviderError } from '../../engine/ports/index.js';
import { abortable, abortReason, nextDelay, type RetryPolicy, type Sleep } from './retry.js';

export type Attempt =
  | { ok: true; response: ModelResponse }
  | { ok: false; error: ProviderError; retryAfterMs: number | null };

export async function withRetries(
  policy: RetryPolicy,
  sleep: Sleep,
  signal: AbortSignal | undefined,
  attempt: () => Promise<Attempt>,
): Promise<ModelResponse> {
  for (let tries = 0; ; tries++) {
    if (signal?.aborted) throw abortReason(signal);
    const outcome = await attempt();
    if (outcome.ok) return outcome.response;
    if (tries >= policy.maxRetries) {
      const { message, status } = outcome.error;
      throw new ProviderError(`${message} (gave up after ${tries + 1} attempts)`, status, true);
    }
    await abortable(sleep(nextDelay(tries, policy, outcome.retryAfterMs), signal), signal);
  }
}

/** The error with the key replaced, should a server have echoed it back. */
export function redactKey(error: unknown, key: string | undefined): unknown {
  if (!key || !(error instanceof ProviderError) || !error.message.includes(key)) return error;
  return new ProviderError(error.message.replaceAll(key, '[redacted]'), error.status, error.retryable);
}
