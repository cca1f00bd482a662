/**
 * The thread's model steps as its stored `usage` frames record them (THR-4), read back in order
 * after a frame number: what the thread reports to the D1 usage index (thread/object/usage-reports.ts).
 * The frames are the thread's durable record of what it spent, so a report lost on the way is sent
 * again from them; the step's time is its message's, when the message is still in the log.
 */
import type { UsageTotals } from '../../engine/ports/index.js';

/** One model step's usage, as its `usage` frame stored it. */
export interface StoredUsageStep {
  /** The frame's number: the report's marker moves past it once D1 has the step. */
  seq: number;
  /** The step's assistant message (or summary): with the thread, the step's key in D1. */
  messageId: string;
  model: string;
  step: UsageTotals;
  /** When the step's message was stored (ms since the epoch); null once the message is gone. */
  at: number | null;
}

interface UsageFrameRow extends Record<string, SqlStorageValue> {
  seq: number;
  body: string;
  at: number | null;
}

// JSON functions select the usage frames without parsing every frame of the turn in JavaScript;
// the stored body is the frame exactly as it was streamed (scrubbed of secrets).
const USAGE_AFTER = `SELECT f.seq AS seq, f.body AS body, m.created_at AS at
  FROM frames f LEFT JOIN messages m ON m.id = json_extract(f.body, '$.message_id')
  WHERE f.seq > ? AND json_extract(f.body, '$.type') = 'usage'
  ORDER BY f.seq LIMIT ?`;

export class UsageFrames {
  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
  }

  /** Up to `limit` steps recorded after frame `seq`, oldest first. */
  after(seq: number, limit: number): StoredUsageStep[] {
    return this.sql
      .exec<UsageFrameRow>(USAGE_AFTER, seq, limit)
      .toArray()
      .map((row) => {
        const frame = JSON.parse(row.body) as { message_id: string; model: string; step: UsageTotals };
        return { seq: row.seq, messageId: frame.message_id, model: frame.model, step: frame.step, at: row.at };
      });
  }
}
