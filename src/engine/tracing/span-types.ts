/**
 * What a trace is made of (TRACE-1): finished spans as the runtime records them, in its own words
 * and independent of any OpenTelemetry package. The thread stores them (its timeline) and an
 * exporter turns them into OTLP; the engine only ever hands them to a sink.
 */

/** OpenTelemetry's span kinds the runtime uses: its own work, calls it makes, requests it serves. */
export type SpanKind = 'internal' | 'client' | 'server';

/** An attribute value: OpenTelemetry's primitive types and string arrays (finish reasons). */
export type AttributeValue = string | number | boolean | string[];

export type Attributes = Record<string, AttributeValue>;

/** Something that happened at one instant within a span (a retry, a dropped batch). */
export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

export interface FinishedSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  parentSpanId: string | null;
  /** `invoke_agent <agent>`, `chat <model>`, `execute_tool <tool>`, `tools/call <tool>`, `hook <name>`, ... */
  name: string;
  kind: SpanKind;
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  status: 'unset' | 'ok' | 'error';
  /** Why it failed, scrubbed of the thread's secrets. */
  statusMessage?: string;
  attributes: Attributes;
  events: SpanEvent[];
}

/** Where finished spans go: the thread's records and, when configured, a collector. */
export interface SpanSink {
  record(span: FinishedSpan): void;
}
