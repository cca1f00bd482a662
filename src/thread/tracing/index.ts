/**
 * Spans sent to an OpenTelemetry collector: the export settings read from the Worker's `OTEL_*`
 * variables, and the isolate's exporter for them, which the thread records finished spans into and
 * flushes through `waitUntil` when a turn ends. The spans are encoded as OTLP protobuf or JSON by
 * `@opentelemetry/otlp-transformer`.
 */

export { encodeSpans, type SpanEncoding, spanEncoding } from './otlp-encoding.js';
export {
  DEFAULT_SERVICE_NAME,
  DEFAULT_TIMEOUT_MS,
  type OtlpProtocol,
  type OtlpSettings,
  otlpSettings,
} from './otlp-settings.js';
export { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './otlp-spans.js';
export { MAX_QUEUED_SPANS, MAX_SPANS_PER_REQUEST, type SpanExporter, spanExporter } from './span-exporter.js';
