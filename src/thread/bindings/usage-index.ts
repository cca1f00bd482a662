/**
 * The usage index in D1 (USE-1, USE-2): one row per model step of every thread, keyed by the thread
 * and the step's assistant message, with whom it is attributed to (tenant, user), the agent, the
 * model, the UTC day and what it spent. Threads write their own rows off the turn's path; a step sent
 * twice (a report repeated after a restart) is ignored the second time, so each step counts once.
 * `GET /api/usage` sums the rows by the dimensions asked for. The schema is made on first use in an
 * isolate, like the thread index's.
 */
import { schemaOnFirstUse } from './d1-schema.js';

/** What usage can be grouped by; each is a column of `usage_events`. */
export const USAGE_DIMENSIONS = ['user', 'agent', 'model', 'day', 'tenant'] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];

const COLUMN: Record<UsageDimension, string> = {
  user: 'user_id',
  agent: 'agent',
  model: 'model',
  day: 'day',
  tenant: 'tenant',
};

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS usage_events (
    thread_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    tenant TEXT NOT NULL,
    user_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    model TEXT NOT NULL,
    day TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_usd REAL NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (thread_id, message_id)
  )`,
  'CREATE INDEX IF NOT EXISTS usage_by_tenant_day ON usage_events (tenant, day, user_id)',
];

const INSERT = `INSERT OR IGNORE INTO usage_events (thread_id, message_id, tenant, user_id, agent, model, day,
    input_tokens, output_tokens, cached_tokens, total_tokens, cost_usd, recorded_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** One model step as the index keeps it. */
export interface UsageEvent {
  threadId: string;
  messageId: string;
  tenant: string;
  userId: string;
  agent: string;
  model: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  totalTokens: number;
  costUsd: number;
}

export interface UsageNumbers {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  cost_usd: number;
  steps: number;
}

export type UsageRow = Partial<Record<UsageDimension, string>> & UsageNumbers;

/** Which rows a reader may sum: a tenant (null: every tenant) and, for all but admins, one user. */
export interface UsageScope {
  tenant: string | null;
  user: string | null;
}

export interface UsageQuery {
  scope: UsageScope;
  groupBy: readonly UsageDimension[];
  /** Inclusive UTC days, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

const ensureSchema = schemaOnFirstUse(SCHEMA);

const SUMS = `SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
  SUM(cached_tokens) AS cached_tokens, SUM(total_tokens) AS total_tokens, SUM(cost_usd) AS cost_usd,
  COUNT(*) AS steps`;

export const NO_USAGE_NUMBERS: UsageNumbers = {
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  total_tokens: 0,
  cost_usd: 0,
  steps: 0,
};

/** The row as the API answers it: the dimensions asked for, then the sums. */
function rowOf(groupBy: readonly UsageDimension[], raw: Record<string, unknown>): UsageRow {
  const row: UsageRow = { ...NO_USAGE_NUMBERS };
  for (const dimension of groupBy) row[dimension] = String(raw[COLUMN[dimension]] ?? '');
  for (const key of Object.keys(NO_USAGE_NUMBERS) as (keyof UsageNumbers)[]) row[key] = Number(raw[key] ?? 0);
  return row;
}

export class UsageIndex {
  constructor(private readonly db: D1Database) {}

  /** Writes the steps in one batch (all or none); a step already there is left as it is. */
  async record(events: readonly UsageEvent[]): Promise<void> {
    if (events.length === 0) return;
    await ensureSchema(this.db);
    const now = Date.now();
    await this.db.batch(
      events.map((event) =>
        this.db
          .prepare(INSERT)
          .bind(
            event.threadId,
            event.messageId,
            event.tenant,
            event.userId,
            event.agent,
            event.model,
            event.day,
            event.inputTokens,
            event.outputTokens,
            event.cachedTokens,
            event.totalTokens,
            event.costUsd,
            now,
          ),
      ),
    );
  }

  /** The sums of the scope's steps between the two days, one row per value of the dimensions, dearest first. */
  async report(query: UsageQuery): Promise<{ rows: UsageRow[]; totals: UsageNumbers }> {
    await ensureSchema(this.db);
    const where = ['day >= ?', 'day <= ?'];
    const params: string[] = [query.from, query.to];
    if (query.scope.tenant !== null) {
      where.push('tenant = ?');
      params.push(query.scope.tenant);
    }
    if (query.scope.user !== null) {
      where.push('user_id = ?');
      params.push(query.scope.user);
    }
    // Column names come from COLUMN only, never from the request.
    const columns = query.groupBy.map((dimension) => COLUMN[dimension]);
    const select = [...columns, SUMS].join(', ');
    const group = columns.length > 0 ? ` GROUP BY ${columns.join(', ')}` : '';
    const order = ['cost_usd DESC', 'total_tokens DESC', ...columns].join(', ');
    const { results } = await this.db
      .prepare(`SELECT ${select} FROM usage_events WHERE ${where.join(' AND ')}${group} ORDER BY ${order}`)
      .bind(...params)
      .all<Record<string, unknown>>();
    // Without dimensions SQLite answers one row of nulls when nothing matched: no row then.
    const rows = results.filter((raw) => Number(raw.steps ?? 0) > 0).map((raw) => rowOf(query.groupBy, raw));
    const totals = { ...NO_USAGE_NUMBERS };
    for (const row of rows) {
      for (const key of Object.keys(totals) as (keyof UsageNumbers)[]) totals[key] += row[key];
    }
    return { rows, totals };
  }
}
