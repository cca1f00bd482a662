/**
 * The open waits of every thread in D1, for `GET /api/waits` (the inbox): one row per call a thread
 * waits on, as `GET /api/threads/:id` shows it in `waiting_for`. A thread's rows are replaced in the
 * same batch that writes its status to the `threads` row (thread-index.ts), so the two never
 * disagree; they go with the thread's row when it is deleted. The listing reads them joined to
 * their thread's row, which carries the owner, tenant and sharing the access rule needs.
 */
import type { InteractionKind } from '../../spec/index.js';
import type { JsonValue } from './family-api.js';
import type { WaitingFor } from './thread-api.js';

export const WAITS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS thread_waits (
    thread_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    payload TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (thread_id, tool_call_id, kind)
  )`,
  // Oldest first, the order of the listing and of its cursor.
  'CREATE INDEX IF NOT EXISTS thread_waits_by_age ON thread_waits (created_at, thread_id, tool_call_id, kind)',
];

/**
 * The most a wait's payload may take in the index, as JSON in UTF-8. An approval's payload holds the
 * call's arguments, which a model writes: a larger one is left out (`payload_omitted`) rather than
 * let one huge row make D1 refuse the batch, and with it the thread's status.
 */
export const MAX_INDEXED_PAYLOAD_BYTES = 64 * 1024;

/** One open wait, as `waiting_for` shows it. */
export type IndexedWait = WaitingFor;

/** A wait as `GET /api/waits` lists it: the wait, its thread and the agent that owns the thread. */
export interface ListedWait extends IndexedWait {
  thread_id: string;
  agent: string;
  /** True when the payload was too large for the index: read it from the thread (`payload` is null). */
  payload_omitted: boolean;
}

export interface WaitListQuery {
  /** Only these kinds; all kinds when empty. */
  kinds: readonly InteractionKind[];
  agent?: string;
  cursor?: string;
  limit: number;
}

/** Which threads a listing may read: a condition on the `threads` row `t`, and its parameters. */
export interface VisibleThreads {
  where: string[];
  params: (string | number)[];
}

interface WaitCursor {
  createdAt: number;
  threadId: string;
  toolCallId: string;
  kind: string;
}

function encodeCursor(cursor: WaitCursor): string {
  return btoa(JSON.stringify([cursor.createdAt, cursor.threadId, cursor.toolCallId, cursor.kind]));
}

/** The cursor a previous page gave, or null for anything else (a page never trusts its shape). */
export function decodeWaitCursor(value: string): WaitCursor | null {
  try {
    const parsed: unknown = JSON.parse(atob(value));
    if (!Array.isArray(parsed) || parsed.length !== 4) return null;
    const [createdAt, threadId, toolCallId, kind] = parsed as unknown[];
    if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return null;
    if (typeof threadId !== 'string' || typeof toolCallId !== 'string' || typeof kind !== 'string') return null;
    return { createdAt, threadId, toolCallId, kind };
  } catch {
    return null;
  }
}

/** The payload as stored: its JSON, or null when it is over the limit. */
function storedPayload(payload: JsonValue): string | null {
  const text = JSON.stringify(payload ?? null);
  return new TextEncoder().encode(text).byteLength > MAX_INDEXED_PAYLOAD_BYTES ? null : text;
}

/** Rows per INSERT: six parameters each (and the thread's id once), under D1's hundred a statement. */
const ROWS_PER_INSERT = 16;

/**
 * The statements that make a thread's rows exactly `waits`: its old rows go, these are inserted, run
 * after its `threads` row is written. Only while that row exists: a status written late, after the
 * thread was deleted, leaves no waits behind.
 */
export function replaceWaits(db: D1Database, threadId: string, waits: readonly IndexedWait[]): D1PreparedStatement[] {
  const statements = [db.prepare('DELETE FROM thread_waits WHERE thread_id = ?').bind(threadId)];
  for (let start = 0; start < waits.length; start += ROWS_PER_INSERT) {
    const chunk = waits.slice(start, start + ROWS_PER_INSERT);
    const values = chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ');
    const params = chunk.flatMap((wait) => [
      threadId,
      wait.tool_call_id,
      wait.kind,
      wait.name,
      storedPayload(wait.payload),
      wait.created_at,
    ]);
    statements.push(
      db
        .prepare(
          `INSERT OR REPLACE INTO thread_waits (thread_id, tool_call_id, kind, name, payload, created_at)
           SELECT * FROM (VALUES ${values}) WHERE EXISTS (SELECT 1 FROM threads WHERE id = ?)`,
        )
        .bind(...params, threadId),
    );
  }
  return statements;
}

interface WaitRow {
  thread_id: string;
  agent: string;
  tool_call_id: string;
  kind: InteractionKind;
  name: string;
  payload: string | null;
  created_at: number;
}

/** A page of the open waits of the threads `visible` admits, oldest first. */
export async function listWaits(
  db: D1Database,
  visible: VisibleThreads,
  query: WaitListQuery,
): Promise<{ waits: ListedWait[]; next_cursor: string | null }> {
  const where = [...visible.where];
  const params = [...visible.params];
  if (query.kinds.length > 0) {
    where.push(`w.kind IN (${query.kinds.map(() => '?').join(', ')})`);
    params.push(...query.kinds);
  }
  if (query.agent !== undefined) {
    where.push('t.agent = ?');
    params.push(query.agent);
  }
  const cursor = query.cursor ? decodeWaitCursor(query.cursor) : null;
  if (cursor) {
    where.push('(w.created_at, w.thread_id, w.tool_call_id, w.kind) > (?, ?, ?, ?)');
    params.push(cursor.createdAt, cursor.threadId, cursor.toolCallId, cursor.kind);
  }
  const { results } = await db
    .prepare(
      `SELECT w.thread_id, t.agent, w.tool_call_id, w.kind, w.name, w.payload, w.created_at
       FROM thread_waits w JOIN threads t ON t.id = w.thread_id
       WHERE ${where.join(' AND ')}
       ORDER BY w.created_at, w.thread_id, w.tool_call_id, w.kind LIMIT ?`,
    )
    .bind(...params, query.limit + 1)
    .all<WaitRow>();
  const waits = results.slice(0, query.limit).map(
    (row): ListedWait => ({
      thread_id: row.thread_id,
      agent: row.agent,
      tool_call_id: row.tool_call_id,
      kind: row.kind,
      name: row.name,
      payload: row.payload === null ? null : (JSON.parse(row.payload) as JsonValue),
      payload_omitted: row.payload === null,
      created_at: row.created_at,
    }),
  );
  const last = waits[waits.length - 1];
  const more = results.length > query.limit && last;
  return {
    waits,
    next_cursor: more
      ? encodeCursor({
          createdAt: last.created_at,
          threadId: last.thread_id,
          toolCallId: last.tool_call_id,
          kind: last.kind,
        })
      : null,
  };
}
