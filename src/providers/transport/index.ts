/**
 * What every model provider shares (THR-4): when to retry and how long to wait, the retry loop,
 * waits an abort cuts short, one step over HTTP, reading a server-sent event stream, reassembling
 * streamed tool calls, and the vendor's explanation of a failure.
 */
export type { Sleep } from './abortable.js';
export { abortable, abortReason, sleep } from './abortable.js';
export type { EventStreamRead } from './event-stream.js';
export { eventObject, readEventStream } from './event-stream.js';
export type { FailureExplained, HttpClientOptions, HttpStep } from './http-client.js';
export { HttpModelClient } from './http-client.js';
export { describe, errorDetail, errorMessageOf, isRecord, snippet } from './http-text.js';
export type { BindingProviderKind, HttpEndpoint, HttpProviderKind, ProviderKind } from './provider-kind.js';
export type { Attempt, ReadProgress, RetryOptions } from './retry-loop.js';
export { readAttempt, withRetries } from './retry-loop.js';
export { isRetryableStatus } from './retry-policy.js';
export { StepAccumulator } from './step-accumulator.js';
export type { ToolCallDialect } from './tool-call-assembler.js';
export { randomCallId, ToolCallAssembler } from './tool-call-assembler.js';
