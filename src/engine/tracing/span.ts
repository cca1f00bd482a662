/**
 * A span being recorded (TRACE-1): started with its parent, given attributes and events as the work
 * goes, ended once and then handed to its tracer's sink. `NO_SPAN` stands in when tracing is off or
 * no turn is being traced: every method does nothing, so instrumented code never asks whether.
 */
import type { Attributes, AttributeValue, FinishedSpan, SpanEvent, SpanKind } from './span-types.js';
import { formatTraceparent, newSpanId, type SpanContext } from './trace-context.js';

/** What a span needs of the tracer that started it. */
export interface SpanOwner {
  record(span: FinishedSpan): void;
  /** The thread's scrubber: a failure's message may quote a secret. */
  scrub(text: string): string;
  /** Attributes every span of this tracer carries (the thread, the tenant, the user). */
  readonly common: Attributes;
  /** Whether message and argument contents are recorded (off unless the operator switches them on). */
  readonly captureContent: boolean;
  now(): number;
}

/** The most characters of content one attribute keeps. */
const CONTENT_LIMIT = 16_384;

export class Span {
  private readonly attributes: Attributes;
  private readonly events: SpanEvent[] = [];
  private status: FinishedSpan['status'] = 'unset';
  private statusMessage: string | undefined;
  private ended = false;

  constructor(
    private readonly owner: SpanOwner | null,
    readonly context: SpanContext,
    private readonly parentSpanId: string | null,
    readonly name: string,
    private readonly kind: SpanKind,
    attributes: Attributes,
    private readonly startMs: number,
  ) {
    this.attributes = owner ? { ...owner.common, ...attributes } : {};
  }

  /** Whether anything this span is told is kept. */
  get recording(): boolean {
    return this.owner !== null;
  }

  /** The header a call made under this span carries, so its callee continues the trace. */
  get traceparent(): string | null {
    return this.owner ? formatTraceparent(this.context) : null;
  }

  child(name: string, kind: SpanKind = 'internal', attributes: Attributes = {}): Span {
    if (!this.owner) return this;
    const context = { traceId: this.context.traceId, spanId: newSpanId(), sampled: this.context.sampled };
    return new Span(this.owner, context, this.context.spanId, name, kind, attributes, this.owner.now());
  }

  set(name: string, value: AttributeValue | undefined | null): this {
    if (this.owner && value !== undefined && value !== null) this.attributes[name] = value;
    return this;
  }

  setAll(attributes: Record<string, AttributeValue | undefined | null>): this {
    for (const [name, value] of Object.entries(attributes)) this.set(name, value);
    return this;
  }

  /**
   * Records a content attribute (messages, arguments, a result) only when content capture is on,
   * as JSON passed through the thread's scrubber and cut to a bounded length.
   */
  content(name: string, value: () => unknown): this {
    if (!this.owner?.captureContent) return this;
    const raw = value();
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    if (text !== undefined) this.attributes[name] = this.owner.scrub(text).slice(0, CONTENT_LIMIT);
    return this;
  }

  event(name: string, attributes: Attributes = {}): this {
    if (this.owner) this.events.push({ name, timeMs: this.owner.now(), attributes });
    return this;
  }

  /** Marks the span failed: `error.type` names the kind of failure, the message is scrubbed. */
  fail(error: unknown, type?: string): this {
    if (!this.owner) return this;
    const message = error instanceof Error ? error.message : String(error);
    this.status = 'error';
    this.statusMessage = this.owner.scrub(message).slice(0, 1_000);
    this.attributes['error.type'] = type ?? (error instanceof Error ? error.name : 'error');
    return this;
  }

  ok(): this {
    if (this.owner && this.status === 'unset') this.status = 'ok';
    return this;
  }

  /** Ends the span once; later calls do nothing. */
  end(): void {
    if (!this.owner || this.ended) return;
    this.ended = true;
    this.owner.record({
      traceId: this.context.traceId,
      spanId: this.context.spanId,
      parentSpanId: this.parentSpanId,
      name: this.name,
      kind: this.kind,
      startMs: this.startMs,
      endMs: Math.max(this.startMs, this.owner.now()),
      status: this.status,
      ...(this.statusMessage !== undefined ? { statusMessage: this.statusMessage } : {}),
      attributes: this.attributes,
      events: this.events,
    });
  }
}

/** The span of untraced work: it records nothing and its children are itself. */
export const NO_SPAN = new Span(
  null,
  { traceId: '0'.repeat(32), spanId: '0'.repeat(16), sampled: false },
  null,
  '',
  'internal',
  {},
  0,
);
