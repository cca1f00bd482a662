/**
 * A thread's tracer (TRACE-1): starts the spans of its turns, its effects and its hooks, each
 * carrying the thread, tenant and user, and hands them, once ended, to the thread's sink. A turn
 * continues the trace of whoever caused it (a caller's `traceparent`, the parent thread's tool
 * call) or begins a new one.
 */
import { Span, type SpanOwner } from './span.js';
import type { Attributes, FinishedSpan, SpanKind, SpanSink } from './span-types.js';
import { newSpanId, newTraceId, type SpanContext } from './trace-context.js';

export interface TracerOptions {
  sink: SpanSink;
  /** Attributes every span carries. */
  common: Attributes;
  scrub(text: string): string;
  captureContent: boolean;
  now?(): number;
}

export class Tracer implements SpanOwner {
  readonly common: Attributes;
  readonly captureContent: boolean;
  private readonly sink: SpanSink;
  private readonly scrubText: (text: string) => string;
  private readonly clock: () => number;

  constructor(options: TracerOptions) {
    this.sink = options.sink;
    this.common = options.common;
    this.scrubText = options.scrub;
    this.captureContent = options.captureContent;
    this.clock = options.now ?? Date.now;
  }

  record(span: FinishedSpan): void {
    this.sink.record(span);
  }

  scrub(text: string): string {
    return this.scrubText(text);
  }

  now(): number {
    return this.clock();
  }

  /** A span beneath `parent` (another process's or thread's), or the root of a new trace. */
  start(name: string, parent: SpanContext | null, kind: SpanKind = 'internal', attributes: Attributes = {}): Span {
    const context = { traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), sampled: parent?.sampled ?? true };
    return new Span(this, context, parent?.spanId ?? null, name, kind, attributes, this.now());
  }
}
