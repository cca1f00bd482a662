/**
 * What every HTTP model provider shares (THR-4): retry timing and the retry loop, reading a
 * server-sent event stream, and the vendor's explanation of a failure.
 */
export type { EventStreamRead } from './event-stream.js';
export { eventObject, readEventStream } from './event-stream.js';
export type { FailureExplained, HttpClientOptions, HttpStep } from './http-client.js';
export { HttpModelClient } from './http-client.js';
export { describe, errorDetail, errorMessageOf, isRecord, snippet } from './http-text.js';
export type { BindingProviderKind, HttpEndpoint, HttpProviderKind, ProviderKind } from './provider-kind.js';
export type { RetryPolicy, Sleep } from './retry.js';
export {
  abortable,
  abortReason,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  nextDelay,
  retryAfterMs,
  sleep,
} from './retry.js';
export type { Attempt, ReadProgress, RetryOptions } from './retrying.js';
export { readAttempt, redactKey, withRetries } from './retrying.js';
