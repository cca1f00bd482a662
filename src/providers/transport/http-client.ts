/**
 * One model step over HTTP, as every HTTP provider makes it (THR-4): POST the request, and either
 * read the answer, fail for good, or report a transient failure (network, 429, 5xx, or a retryable
 * error before anything reached the client) for the retry loop to try again after a backoff or the
 * delay the server asked for. The request's signal stops it at once; no error carries the API key.
 * What differs per protocol is only how a success is read and how a failure explains itself.
 */
import { runtimeFetch } from '../../engine/egress/index.js';
import { type ModelResponse, ProviderError } from '../../engine/ports/index.js';
import { abortable, abortReason } from './abortable.js';
import { describe, errorDetail } from './http-text.js';
import { type Attempt, type ReadProgress, type RetryOptions, readAttempt, withRetries } from './retry-loop.js';
import { isRetryableStatus, retryAfterMs } from './retry-policy.js';

/** The options every HTTP provider takes beside its endpoint and key; 429, 5xx and network failures are retried. */
export interface HttpClientOptions extends RetryOptions {
  fetch?: typeof fetch;
}

/** A failed response explained: the error's message, and any delay its body asks for. */
export interface FailureExplained {
  message: string;
  retryDelayMs?: number | null;
}

export interface HttpStep {
  url: string;
  /** The URL as errors may show it (without a query, say). Default `url`. */
  shownURL?: string;
  init: RequestInit;
  signal: AbortSignal | undefined;
  /** Reads a successful response. */
  read(response: Response, progress: ReadProgress): Promise<ModelResponse>;
  /** Explains a failed response. Default: `<name> answered <status>: <the body's error message>`. */
  explain?(response: Response): Promise<FailureExplained>;
}

export class HttpModelClient {
  private readonly fetchImpl: typeof fetch;

  constructor(
    private readonly name: string,
    private readonly apiKey: string | undefined,
    private readonly options: HttpClientOptions,
  ) {
    // The runtime's own fetch: a model call made inside a tool call (a nested prompt) is not the
    // tool's request. Never called as a method: workerd rejects fetch invoked with a foreign `this`.
    this.fetchImpl = options.fetch ?? ((input, init) => runtimeFetch(input, init));
  }

  /** The step, retried as the policy allows. */
  async step(step: HttpStep): Promise<ModelResponse> {
    try {
      return await withRetries(this.options, step.signal, () => this.attempt(step));
    } catch (error) {
      throw redactKey(error, this.apiKey);
    }
  }

  /** One request. Throws what must not be retried; returns a transient failure for the loop to retry. */
  private async attempt(step: HttpStep): Promise<Attempt> {
    const { signal } = step;
    const doFetch = this.fetchImpl;
    let response: Response;
    try {
      response = await abortable(doFetch(step.url, step.init), signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      const reason = `${this.name} at ${step.shownURL ?? step.url} could not be reached: ${describe(error)}`;
      return { ok: false, error: new ProviderError(reason, undefined, true), retryAfterMs: null };
    }
    if (!response.ok) {
      const failure = await abortable((step.explain ?? ((failed) => this.explain(failed)))(response), signal);
      const error = new ProviderError(failure.message, response.status, isRetryableStatus(response.status));
      if (!error.retryable) throw error;
      return { ok: false, error, retryAfterMs: retryAfterMs(response.headers) ?? failure.retryDelayMs ?? null };
    }
    return readAttempt(signal, (progress) => step.read(response, progress));
  }

  private async explain(response: Response): Promise<FailureExplained> {
    return { message: `${this.name} answered ${response.status}: ${await errorDetail(response)}` };
  }
}

/** The error with the key replaced, should a server have echoed it back. */
function redactKey(error: unknown, key: string | undefined): unknown {
  if (!key || !(error instanceof ProviderError) || !error.message.includes(key)) return error;
  return new ProviderError(error.message.replaceAll(key, '[redacted]'), error.status, error.retryable);
}
