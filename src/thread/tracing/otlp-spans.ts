/**
 * The runtime's finished spans in the shape `@opentelemetry/otlp-transformer` encodes: its serializers
 * read an SDK `ReadableSpan` by duck typing (name, kind, `spanContext()`, times as `[seconds, nanos]`,
 * status code, attributes, events, resource, instrumentation scope), so no tracer SDK is needed. The
 * types are taken from the serializer's own signature, which keeps this file honest when the
 * package changes. A span whose ids are not the hex OTLP carries is left out rather than encoded as
 * wrong bytes.
 */
import type { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { FinishedSpan, SpanKind } from '../../engine/tracing/index.js';

export type ReadableSpan = Parameters<(typeof ProtobufTraceSerializer)['serializeRequest']>[0][number];
type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];
type HrTime = ReadableSpan['startTime'];

/** The runtime as the instrumentation library, and as the SDK in `telemetry.sdk.*`. */
export const INSTRUMENTATION_NAME = 'standard-agents-cloudflare';
export const INSTRUMENTATION_VERSION = '0.1.0';

// OpenTelemetry's SpanKind and SpanStatusCode enums, by value.
const KIND: Record<SpanKind, number> = { internal: 0, server: 1, client: 2 };
const STATUS: Record<FinishedSpan['status'], number> = { unset: 0, ok: 1, error: 2 };
const SAMPLED = 1;

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZEROS = /^0+$/;

function resourceOf(attributes: Resource['attributes']): Resource {
  const resource: Resource = {
    attributes,
    merge: (other) => (other ? resourceOf({ ...attributes, ...other.attributes }) : resource),
    getRawAttributes: () => Object.entries(attributes),
  };
  return resource;
}

/**
 * The resource every span of an exporter shares. One object for all of them: the serializers group
 * spans by the resource's identity, so a batch becomes one `ResourceSpans`.
 */
export function otlpResource(serviceName: string): Resource {
  return resourceOf({
    'service.name': serviceName,
    'telemetry.sdk.name': INSTRUMENTATION_NAME,
    'telemetry.sdk.language': 'webjs',
    'telemetry.sdk.version': INSTRUMENTATION_VERSION,
  });
}

/** The instrumentation scope every span of an exporter shares (grouped by identity too). */
export function otlpScope(): Scope {
  return { name: INSTRUMENTATION_NAME, version: INSTRUMENTATION_VERSION };
}

/** Epoch milliseconds (fractional) as `[seconds, nanoseconds]`. */
export function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  return [seconds, Math.min(999_999_999, Math.max(0, nanos))];
}

function validId(id: string, shape: RegExp): boolean {
  return shape.test(id) && !ZEROS.test(id);
}

/** Whether OTLP can carry the span as it is: hex ids that are not all zeros, finite times. */
export function exportable(span: FinishedSpan): boolean {
  return (
    validId(span.traceId, TRACE_ID) &&
    validId(span.spanId, SPAN_ID) &&
    (span.parentSpanId === null || validId(span.parentSpanId, SPAN_ID)) &&
    Number.isFinite(span.startMs) &&
    Number.isFinite(span.endMs)
  );
}

/** A finished span as a ReadableSpan; check `exportable` first. */
export function readableSpan(span: FinishedSpan, resource: Resource, scope: Scope): ReadableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: SAMPLED };
  const parent = span.parentSpanId
    ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: SAMPLED }
    : undefined;
  return {
    name: span.name,
    kind: KIND[span.kind] ?? 0,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: hrTime(span.startMs),
    endTime: hrTime(span.endMs),
    duration: hrTime(Math.max(0, span.endMs - span.startMs)),
    ended: true,
    status: { code: STATUS[span.status] ?? 0, message: span.statusMessage },
    attributes: span.attributes,
    links: [],
    events: span.events.map((event) => ({
      name: event.name,
      time: hrTime(event.timeMs),
      attributes: event.attributes,
      droppedAttributesCount: 0,
    })),
    resource,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
