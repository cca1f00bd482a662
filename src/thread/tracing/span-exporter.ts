/**
 * Sends finished spans to an OpenTelemetry collector over OTLP/HTTP. Spans wait in a bounded queue
 * (the oldest dropped when it is full, counted, the count logged at the next flush) until `flush()`
 * POSTs them, at most 512 to a request, encoded by `@opentelemetry/otlp-transformer` as protobuf or
 * JSON. Telemetry must never cost a turn anything: a collector that is down, slow, answers an error
 * or redirects loses that flush's spans and writes one log line; `flush()` never throws, each request
 * is cut at the configured timeout, redirects are not followed and nothing is retried. One exporter
 * per isolate per settings, so every thread of an isolate adds to the same batches. Each `flush()`
 * sends what is queued when it is called, with its own requests: a thread awaits (through
 * `waitUntil`) no other thread's I/O.
 */
import type { FinishedSpan, SpanSink } from '../../engine/tracing/index.js';
import { encodeSpans, type SpanEncoding, spanEncoding } from './otlp-encoding.js';
import type { OtlpSettings } from './otlp-settings.js';
import { exportable } from './otlp-spans.js';

/** The most spans an exporter holds between flushes; beyond it the oldest are dropped. */
export const MAX_QUEUED_SPANS = 2048;
/** The most spans one request carries. */
export const MAX_SPANS_PER_REQUEST = 512;
/** How many settings an isolate keeps an exporter for (in practice there is one). */
const MAX_EXPORTERS = 8;

export interface SpanExporter extends SpanSink {
  /** Sends the queued spans; resolves when every request has ended, and never rejects. */
  flush(): Promise<void>;
  /** Spans dropped because the queue was full, since the exporter was made. */
  readonly dropped: number;
}

const CONTENT_TYPE = { 'http/protobuf': 'application/x-protobuf', 'http/json': 'application/json' } as const;

/** Why a request failed, in a line: fetch's message may quote the URL, whose query can hold a key. */
function causeOf(error: unknown, timeoutMs: number, endpoint: string, shown: string): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const message = (error instanceof Error ? error.message : String(error)).replaceAll(endpoint, shown);
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const text = typeof code === 'string' ? `${message} (${code})` : message;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The endpoint as a log line may show it: no credentials, no query. */
function shownEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.origin}${url.pathname}`;
}

class OtlpSpanExporter implements SpanExporter {
  readonly #settings: OtlpSettings;
  readonly #encoding: SpanEncoding;
  readonly #headers: Record<string, string>;
  readonly #where: string;
  #queue: FinishedSpan[] = [];
  #dropped = 0;
  #droppedUnlogged = 0;

  constructor(settings: OtlpSettings) {
    this.#settings = settings;
    this.#encoding = spanEncoding(settings.protocol, settings.serviceName);
    // The settings' headers first: they may replace the user agent but not the content type.
    this.#headers = {
      'user-agent': 'standard-agents-otlp-exporter',
      ...settings.headers,
      'content-type': CONTENT_TYPE[settings.protocol],
    };
    this.#where = shownEndpoint(settings.endpoint);
  }

  get dropped(): number {
    return this.#dropped;
  }

  record(span: FinishedSpan): void {
    if (this.#queue.length >= MAX_QUEUED_SPANS) {
      this.#queue.shift();
      this.#dropped++;
      this.#droppedUnlogged++;
    }
    this.#queue.push(span);
  }

  async flush(): Promise<void> {
    try {
      const spans = this.#queue;
      this.#queue = [];
      const lines: string[] = [];
      if (this.#droppedUnlogged > 0) {
        lines.push(
          `the queue of ${MAX_QUEUED_SPANS} spans was full: ${this.#droppedUnlogged} oldest dropped (${this.#dropped} in all)`,
        );
        this.#droppedUnlogged = 0;
      }
      if (spans.length > 0) lines.push(...(await this.#send(spans)));
      for (const line of lines) console.warn(`[standard-agents] span export to ${this.#where}: ${line}`);
    } catch (error) {
      const cause = causeOf(error, 0, this.#settings.endpoint, this.#where);
      console.warn(`[standard-agents] span export to ${this.#where} failed: ${cause}`);
    }
  }

  /** Sends the spans in batches side by side; the log lines for what did not arrive. */
  async #send(spans: FinishedSpan[]): Promise<string[]> {
    const valid = spans.filter(exportable);
    const lines: string[] = [];
    if (valid.length < spans.length)
      lines.push(`${spans.length - valid.length} spans with malformed ids or times left out`);
    const batches: FinishedSpan[][] = [];
    for (let start = 0; start < valid.length; start += MAX_SPANS_PER_REQUEST)
      batches.push(valid.slice(start, start + MAX_SPANS_PER_REQUEST));
    // Side by side, so a collector that hangs costs one timeout, not one per batch.
    const failures = await Promise.all(batches.map((batch) => this.#post(batch)));
    const lost = new Map<string, number>();
    failures.forEach((failure, index) => {
      if (failure !== null) lost.set(failure, (lost.get(failure) ?? 0) + (batches[index]?.length ?? 0));
    });
    for (const [cause, count] of lost) lines.push(`failed, ${cause}; ${count} spans lost`);
    return lines;
  }

  /** One request; null when the collector took it, else why not. */
  async #post(batch: FinishedSpan[]): Promise<string | null> {
    const { endpoint, timeoutMs } = this.#settings;
    try {
      const body = await encodeSpans(batch, this.#encoding);
      if (!body) return 'the spans could not be encoded';
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: this.#headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return null;
      if (response.status >= 300 && response.status < 400)
        return `the collector answered ${response.status} (redirects are not followed)`;
      return `the collector answered ${response.status}`;
    } catch (error) {
      return causeOf(error, timeoutMs, endpoint, this.#where);
    }
  }
}

const exporters = new Map<string, SpanExporter>();

function keyOf(settings: OtlpSettings): string {
  const headers = Object.entries(settings.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([settings.endpoint, settings.protocol, settings.serviceName, settings.timeoutMs, headers]);
}

/** The isolate's exporter for these settings, made on first use. */
export function spanExporter(settings: OtlpSettings): SpanExporter {
  const key = keyOf(settings);
  let exporter = exporters.get(key);
  if (!exporter) {
    if (exporters.size >= MAX_EXPORTERS) {
      const oldest = exporters.keys().next().value;
      if (oldest !== undefined) exporters.delete(oldest);
    }
    exporter = new OtlpSpanExporter(settings);
    exporters.set(key, exporter);
  }
  return exporter;
}
