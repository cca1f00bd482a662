/**
 * The thread's finished spans (TRACE-5), the records its timeline is drawn from with no collector:
 * a turn's spans are written together when it ends, as one row per trace, so tracing costs a turn
 * one row written, not one per span. The newest `SPAN_BATCHES_KEPT` rows are kept. The table is
 * made on first use.
 */
import type { FinishedSpan } from '../../engine/tracing/index.js';
import { TableOnFirstUse } from './table-on-first-use.js';

/** Rows (a turn's spans of one trace, or an effect's) kept per thread. */
export const SPAN_BATCHES_KEPT = 200;

const SCHEMA = `CREATE TABLE IF NOT EXISTS span_batches (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  trace_id TEXT NOT NULL,
  spans TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS span_batches_by_trace ON span_batches (trace_id)`;

export class SpanRows {
  private readonly table: TableOnFirstUse;
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
    this.table = new TableOnFirstUse(this.sql, 'span_batches', SCHEMA);
  }

  /** Stores spans, one row per trace among them, and lets the oldest rows go. */
  insert(spans: readonly FinishedSpan[]): void {
    if (spans.length === 0) return;
    this.table.ready(true);
    const byTrace = new Map<string, FinishedSpan[]>();
    for (const span of spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
    for (const [traceId, batch] of byTrace) {
      this.sql.exec('INSERT INTO span_batches (trace_id, spans) VALUES (?, ?)', traceId, JSON.stringify(batch));
    }
    this.sql.exec('DELETE FROM span_batches WHERE seq <= (SELECT MAX(seq) FROM span_batches) - ?', SPAN_BATCHES_KEPT);
  }

  /** The spans of one trace, or of the newest `traces` traces, in the order they started. */
  list(query: { traceId?: string; traces: number }): FinishedSpan[] {
    if (!this.table.ready(false)) return [];
    const rows = query.traceId
      ? this.sql.exec<{ spans: string }>('SELECT spans FROM span_batches WHERE trace_id = ?', query.traceId)
      : this.sql.exec<{ spans: string }>(
          `SELECT spans FROM span_batches WHERE trace_id IN
             (SELECT trace_id FROM span_batches GROUP BY trace_id ORDER BY MAX(seq) DESC LIMIT ?)`,
          query.traces,
        );
    const spans = rows.toArray().flatMap((row) => JSON.parse(row.spans) as FinishedSpan[]);
    return spans.sort((a, b) => a.startMs - b.startMs);
  }
}
