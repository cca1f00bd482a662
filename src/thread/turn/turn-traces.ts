/**
 * A thread's traces (TRACE-1, TRACE-2, TRACE-5): the tracer of its turns and effects, the trace a
 * turn continues (the `traceparent` stored with the message that caused it, by a caller or the
 * parent thread's tool call), and where finished spans go. They are held in memory until the work
 * ends, then written to the thread's SQLite in one row per trace (the inspector's timeline reads
 * them there, no collector needed) and, when the Worker names a collector, queued for it and
 * flushed through `waitUntil`: after the turn, never in its way.
 *
 * `OTEL_SDK_DISABLED=true` switches all of it off: no span is made, stored or sent.
 */
import { type TurnOutcome, turnIdOf } from '../../engine/conversation/index.js';
import type { ThreadStore } from '../../engine/ports/index.js';
import {
  ATTR,
  type Attributes,
  type FinishedSpan,
  NO_SPAN,
  parseTraceparent,
  type Span,
  type SpanContext,
  type SpanSink,
  spanNames,
  Tracer,
} from '../../engine/tracing/index.js';
import type { SpanRows } from '../storage/index.js';
import { otlpSettings, type SpanExporter, spanExporter } from '../tracing/index.js';

/** Where the trace context of the message that starts the next turn waits (the thread's key-value store). */
export const TRACE_PARENT_KEY = 'trace:parent';

interface KeyValues {
  getValue(key: string): unknown;
  setValue(key: string, value: unknown): void;
}

export interface TraceHost {
  ctx: DurableObjectState;
  env: object;
  rows(): SpanRows;
  /** The thread's scrubber, as it is now (a secret stored mid-turn included). */
  scrub(text: string): string;
  /** The thread, its tenant and its owner: carried by every span. */
  common(): Attributes;
}

function envText(env: object, name: string): string | undefined {
  const value = (env as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

export class ThreadTraces implements SpanSink {
  private buffer: FinishedSpan[] = [];
  private readonly exporter: SpanExporter | null;
  readonly enabled: boolean;
  private readonly captureContent: boolean;

  constructor(private readonly host: TraceHost) {
    this.enabled = envText(host.env, 'OTEL_SDK_DISABLED') !== 'true';
    const settings = this.enabled ? otlpSettings(host.env as Record<string, unknown>) : null;
    this.exporter = settings ? spanExporter(settings) : null;
    this.captureContent = envText(host.env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT') === 'true';
  }

  /** Stores a valid `traceparent` for the next turn to continue; anything else is ignored. */
  static remember(store: KeyValues, traceparent: string | undefined): void {
    if (parseTraceparent(traceparent)) store.setValue(TRACE_PARENT_KEY, traceparent);
  }

  /** The trace the next turn continues, taken (once) from where the message that caused it left it. */
  takeParent(store: KeyValues): SpanContext | null {
    const stored = store.getValue(TRACE_PARENT_KEY);
    if (stored === undefined) return null;
    store.setValue(TRACE_PARENT_KEY, undefined);
    return parseTraceparent(typeof stored === 'string' ? stored : null);
  }

  /** A tracer for work starting now, or null when tracing is off. */
  tracer(): Tracer | null {
    if (!this.enabled) return null;
    const { host } = this;
    const common = host.common();
    return new Tracer({
      sink: this,
      common: { ...common, [ATTR.conversation]: String(common[ATTR.thread] ?? '') },
      scrub: (text) => host.scrub(text),
      captureContent: this.captureContent,
    });
  }

  /** The span of a turn of `agent` about to run: beneath the trace the message that caused it carries. */
  startTurn(agent: string, store: ThreadStore): Span {
    const tracer = this.tracer();
    if (!tracer) return NO_SPAN;
    return tracer.start(spanNames.turn(agent), this.takeParent(store), 'internal', {
      [ATTR.operation]: 'invoke_agent',
      [ATTR.agentName]: agent,
    });
  }

  /**
   * Ends a turn's span and stores what it recorded. A turn that waits for an answer (a person, a
   * child thread) leaves its context for the turn the answer resumes: one trace from message to answer.
   */
  endTurn(span: Span, outcome: TurnOutcome, store: ThreadStore): void {
    // The model calls this turn made are the spans held since the last one ended: its usage is theirs,
    // not the totals since the user's message, which a turn resumed after a wait would count again.
    endTurnSpan(span, outcome, store, modelUsage(this.buffer));
    // A turn that waits, or hands the thread to another agent, is continued by the next one.
    const continued = outcome.kind === 'waiting' || (outcome.kind === 'done' && outcome.reason === 'handoff');
    if (continued && span.traceparent) ThreadTraces.remember(store, span.traceparent);
    this.flush();
  }

  record(span: FinishedSpan): void {
    this.buffer.push(span);
    this.exporter?.record(span);
  }

  /** Writes the spans finished so far to the thread's records and sends them on, off the caller's path. */
  flush(): void {
    if (this.buffer.length === 0) return;
    const spans = this.buffer;
    this.buffer = [];
    this.host.rows().insert(spans);
    if (this.exporter) this.host.ctx.waitUntil(this.exporter.flush());
  }
}

interface TurnModelUsage {
  input: number;
  output: number;
  /** Null when no call was priced: a turn of an unpriced model has no cost, not a cost of 0. */
  cost: number | null;
}

/** The tokens and cost of the model calls (steps and compactions) among `spans`. */
function modelUsage(spans: readonly FinishedSpan[]): TurnModelUsage {
  const total: TurnModelUsage = { input: 0, output: 0, cost: null };
  for (const span of spans) {
    if (span.attributes[ATTR.operation] !== 'chat') continue;
    total.input += Number(span.attributes[ATTR.inputTokens] ?? 0);
    total.output += Number(span.attributes[ATTR.outputTokens] ?? 0);
    const cost = span.attributes[ATTR.cost];
    if (typeof cost === 'number') total.cost = (total.cost ?? 0) + cost;
  }
  return total;
}

/** Ends a turn's span with what the turn came to and what its model calls used. */
function endTurnSpan(span: Span, outcome: TurnOutcome, store: ThreadStore, usage: TurnModelUsage): void {
  if (!span.recording) return;
  const turnId = turnIdOf(store.messages());
  span.setAll({
    [ATTR.turn]: turnId || undefined,
    [ATTR.inputTokens]: usage.input,
    [ATTR.outputTokens]: usage.output,
    [ATTR.cost]: usage.cost,
    'standard_agents.outcome': outcome.kind === 'done' ? outcome.reason : outcome.kind,
  });
  if (outcome.kind === 'failed') span.fail(outcome.message, outcome.code ?? 'turn_failed');
  else if (outcome.kind === 'limit') span.fail(outcome.message, outcome.code ?? 'step_limit');
  else span.ok();
  span.end();
}
