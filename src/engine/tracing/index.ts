/**
 * Traces of what a thread does (TRACE-1 to TRACE-4): spans in the runtime's own words, the W3C
 * `traceparent` a caller or a parent thread passes on, the active span carried through async work,
 * and the names and attributes of the OpenTelemetry GenAI conventions. No OpenTelemetry package is
 * needed here: the thread layer stores the finished spans and exports them as OTLP.
 */
export { activeSpan, inChildSpan, withSpan } from './active-span.js';
export { ATTR, providerName, spanNames } from './gen-ai.js';
export { NO_SPAN, Span } from './span.js';
export type { Attributes, AttributeValue, FinishedSpan, SpanEvent, SpanKind, SpanSink } from './span-types.js';
export { formatTraceparent, newSpanId, newTraceId, parseTraceparent, type SpanContext } from './trace-context.js';
export { Tracer, type TracerOptions } from './tracer.js';
