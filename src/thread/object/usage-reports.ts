/**
 * The thread's reports to the D1 usage index (USE-2, USE-3): after each turn, the model steps its
 * `usage` frames recorded since the last report are written to D1, off the turn's path. The frame
 * number reached is kept only once D1 has accepted the steps (in memory at once, in the thread's
 * SQLite with its next write), and D1 ignores a step it already has: a report cut short, or a number
 * lost with an evicted or restarted object, means steps sent again, never a step counted twice or
 * lost. A D1 that refuses is logged and asked again at the next turn's end.
 *
 * A step is attributed to the thread's tenant and owner and to the thread's agent when it is
 * reported: the thread does not record who posted each message, and spend quotas count the owner too.
 */
import { DEFAULT_TENANT } from '../access/index.js';
import type { UsageEvent, UsageIndex } from '../bindings/index.js';
import { type StoredUsageStep, type ThreadMeta, type ThreadRecord, UsageFrames } from '../storage/index.js';

/** The meta key of the last frame number D1 has. */
export const USAGE_REPORTED_KEY = 'usage_reported_seq';
/** Steps per D1 batch: each is one statement of thirteen values. */
const BATCH = 50;

export interface UsageReportDeps {
  ctx: DurableObjectState;
  index: UsageIndex;
  meta: ThreadMeta;
  record: () => ThreadRecord | null;
  logError: (message: string) => void;
}

/** `YYYY-MM-DD` of a time, UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function eventOf(record: ThreadRecord, step: StoredUsageStep): UsageEvent {
  return {
    threadId: record.id,
    messageId: step.messageId,
    tenant: record.tenant ?? DEFAULT_TENANT,
    userId: record.userId ?? '',
    agent: record.agentId,
    model: step.model,
    day: utcDay(step.at ?? Date.now()),
    inputTokens: step.step.input_tokens,
    outputTokens: step.step.output_tokens,
    cachedTokens: step.step.cached_tokens,
    totalTokens: step.step.total_tokens,
    costUsd: step.step.cost_usd,
  };
}

export class UsageReports {
  private chain: Promise<void> = Promise.resolve();
  private queued = false;

  constructor(private readonly deps: UsageReportDeps) {}

  /** After a turn: sends what is not yet reported, after any report under way; never throws. */
  send(): void {
    // One queued report covers every turn end until it starts.
    if (this.queued) return;
    this.queued = true;
    this.chain = this.chain
      .then(() => {
        this.queued = false;
        return this.flush();
      })
      .catch((error) => {
        const id = this.deps.record()?.id ?? 'unknown';
        this.deps.logError(`usage report failed for ${id}: ${(error as Error).message}`);
      });
    this.deps.ctx.waitUntil(this.chain);
  }

  /** Resolves once every report asked for so far is done (or has failed and been logged). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Writes the unreported steps to D1, a batch at a time, moving the marker after each batch. */
  async flush(): Promise<void> {
    const { meta, index } = this.deps;
    for (;;) {
      const record = this.deps.record();
      if (!record) return;
      const reported = meta.get<number>(USAGE_REPORTED_KEY) ?? 0;
      const steps = new UsageFrames(this.deps.ctx.storage).after(reported, BATCH);
      const last = steps.at(-1);
      if (!last) return;
      await index.record(steps.map((step) => eventOf(record, step)));
      // The thread deleted meanwhile has no table to keep the marker in.
      if (!this.deps.record()) return;
      // Written with the thread's next write: lost with the instance, the steps go again, and D1
      // ignores those it has.
      meta.setSoon(USAGE_REPORTED_KEY, last.seq);
      if (steps.length < BATCH) return;
    }
  }
}
