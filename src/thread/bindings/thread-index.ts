/**
 * The thread index in D1 (THR-1): lists and filters threads by owner, agent, tag, parent and status
 * without a global singleton object. Each thread writes its own row, and with its status the open
 * waits the inbox lists (wait-index.ts); the schema is created on first use in an isolate, so a fresh
 * database needs no migration step.
 */
import type { ThreadStatus } from '../../spec/index.js';
import type { Principal } from '../access/index.js';
import { schemaOnFirstUse } from './d1-schema.js';
import {
  type IndexedWait,
  type ListedWait,
  listWaits,
  replaceWaits,
  type VisibleThreads,
  WAITS_SCHEMA,
  type WaitListQuery,
} from './wait-index.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    user_id TEXT,
    parent_id TEXT,
    status TEXT NOT NULL,
    tags TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    person_waits INTEGER NOT NULL DEFAULT 0,
    tenant TEXT NOT NULL DEFAULT 'default',
    shared INTEGER NOT NULL DEFAULT 0
  )`,
  'CREATE INDEX IF NOT EXISTS threads_by_user ON threads (user_id, created_at DESC, id DESC)',
  `CREATE TABLE IF NOT EXISTS thread_tags (
    thread_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    PRIMARY KEY (thread_id, tag)
  )`,
  'CREATE INDEX IF NOT EXISTS thread_tags_by_tag ON thread_tags (tag, thread_id)',
  // The newest listing of each agent's MCP servers by any of its threads, for GET /api/agents (LOCK-4).
  `CREATE TABLE IF NOT EXISTS mcp_listings (
    agent TEXT NOT NULL,
    server TEXT NOT NULL,
    tools TEXT NOT NULL,
    listed_at INTEGER NOT NULL,
    PRIMARY KEY (agent, server)
  )`,
  ...WAITS_SCHEMA,
];

/**
 * Columns added since the table was first created: a database made by an older version gets the
 * ones it lacks (SQLite has no ADD COLUMN IF NOT EXISTS, so the table's columns are read first).
 */
const ADDED_COLUMNS: Record<string, string> = {
  person_waits: 'ALTER TABLE threads ADD COLUMN person_waits INTEGER NOT NULL DEFAULT 0',
  tenant: "ALTER TABLE threads ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default'",
  shared: 'ALTER TABLE threads ADD COLUMN shared INTEGER NOT NULL DEFAULT 0',
  // FORK-2: the thread a fork was made from, which `?forked_from=` lists by.
  forked_from: 'ALTER TABLE threads ADD COLUMN forked_from TEXT',
};

/** The tenant's threads by owner, newest first: what every listing reads (IDN-1). */
const TENANT_INDEX =
  'CREATE INDEX IF NOT EXISTS threads_by_tenant ON threads (tenant, user_id, created_at DESC, id DESC)';

/** A thread's forks, newest first (`?forked_from=`). */
const FORKS_INDEX = 'CREATE INDEX IF NOT EXISTS threads_by_source ON threads (forked_from, created_at DESC, id DESC)';

async function addColumns(db: D1Database): Promise<void> {
  const { results } = await db.prepare("SELECT name FROM pragma_table_info('threads')").all<{ name: string }>();
  const present = new Set(results.map((row) => row.name));
  const missing = Object.entries(ADDED_COLUMNS).filter(([column]) => !present.has(column));
  for (const [, statement] of missing) {
    await db
      .prepare(statement)
      .run()
      .catch((error: Error) => {
        // Another isolate added it between the read and here.
        if (!/duplicate column/i.test(error.message)) throw error;
      });
  }
  await db.prepare(TENANT_INDEX).run();
  await db.prepare(FORKS_INDEX).run();
}

const ensureSchema = schemaOnFirstUse(SCHEMA, addColumns);

/** A tool of an MCP server as GET /api/agents shows it (the server's own name and the thread's). */
export interface McpListedTool {
  name: string;
  server_name: string;
  description: string;
}

export interface McpListing {
  tools: McpListedTool[];
  listed_at: number;
}

export interface IndexedThread {
  id: string;
  agent: string;
  tenant: string;
  user_id: string | null;
  shared: boolean;
  parent_id: string | null;
  /** The thread it was forked from (FORK-2), or null. */
  forked_from: string | null;
  status: ThreadStatus;
  tags: string[];
  created_at: number;
  updated_at: number;
}

/**
 * What `?status=waiting` lists: threads that wait on a person (or the client acting for one). A
 * thread that only waits for its subagents is at work and is not among them.
 */
export const WAITING_ON_A_PERSON = 'waiting';

export interface ThreadListQuery {
  /** Whose listing: its tenant's threads it sees (IDN-1). */
  principal: Principal;
  agent?: string;
  tag?: string;
  parent?: string;
  /** Only the forks of this thread (FORK-2). */
  forked_from?: string;
  status?: string;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  limit: number;
}

interface Cursor {
  createdAt: number;
  id: string;
}

function encodeCursor(cursor: Cursor): string {
  return btoa(JSON.stringify([cursor.createdAt, cursor.id]));
}

export function decodeCursor(value: string): Cursor | null {
  try {
    const [createdAt, id] = JSON.parse(atob(value)) as [unknown, unknown];
    return typeof createdAt === 'number' && typeof id === 'string' ? { createdAt, id } : null;
  } catch {
    return null;
  }
}

/**
 * The access rule (IDN-1) as a condition on the `threads` row `t`: an admin sees the tenant's
 * threads, anyone else its own and the shared ones. Every listing reads through it.
 */
function visibleTo(principal: Principal): VisibleThreads {
  if (principal.role === 'admin') return { where: ['t.tenant = ?'], params: [principal.tenant] };
  return { where: ['t.tenant = ?', '(t.user_id = ? OR t.shared = 1)'], params: [principal.tenant, principal.subject] };
}

export class ThreadIndex {
  constructor(private readonly db: D1Database) {}

  /**
   * Writes the thread's row and its open waits (none for a thread that waits for nothing). Sent again
   * after a try whose answer was lost, it updates the row it made rather than failing on it.
   */
  async insert(thread: IndexedThread, personWaits = false, waits: readonly IndexedWait[] = []): Promise<void> {
    await ensureSchema(this.db);
    await this.db.batch([
      this.db
        .prepare(
          `INSERT INTO threads (id, agent, tenant, user_id, shared, parent_id, status, tags, created_at, updated_at,
             person_waits, forked_from)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET status = excluded.status, agent = excluded.agent,
             person_waits = excluded.person_waits, updated_at = excluded.updated_at`,
        )
        .bind(
          thread.id,
          thread.agent,
          thread.tenant,
          thread.user_id,
          thread.shared ? 1 : 0,
          thread.parent_id,
          thread.status,
          JSON.stringify(thread.tags),
          thread.created_at,
          thread.updated_at,
          personWaits ? 1 : 0,
          thread.forked_from,
        ),
      ...thread.tags.map((tag) =>
        this.db.prepare('INSERT OR IGNORE INTO thread_tags (thread_id, tag) VALUES (?, ?)').bind(thread.id, tag),
      ),
      ...replaceWaits(this.db, thread.id, waits),
    ]);
  }

  /**
   * Records the thread's status, its owning agent (which a handoff changes, SUB-2) and whether what
   * it waits for is a person's answer (an approval, a question...), which `?status=waiting` lists;
   * and, in the same batch, its open waits, which replace those it had (the inbox never shows a wait
   * its thread's row says is over).
   */
  async setStatus(
    id: string,
    status: ThreadStatus,
    agent: string,
    personWaits = false,
    waits: readonly IndexedWait[] = [],
  ): Promise<void> {
    await ensureSchema(this.db);
    const update = this.db
      .prepare('UPDATE threads SET status = ?, agent = ?, person_waits = ?, updated_at = ? WHERE id = ?')
      .bind(status, agent, personWaits ? 1 : 0, Date.now(), id);
    await this.db.batch([update, ...replaceWaits(this.db, id, waits)]);
  }

  /** The recorded status of each child of a thread. */
  async childStatuses(parentId: string): Promise<Map<string, ThreadStatus>> {
    await ensureSchema(this.db);
    const { results } = await this.db
      .prepare('SELECT id, status FROM threads WHERE parent_id = ?')
      .bind(parentId)
      .all<{ id: string; status: ThreadStatus }>();
    return new Map(results.map((row) => [row.id, row.status]));
  }

  /** Records what an MCP server offered a thread of `agent`: names and descriptions, nothing secret. */
  async recordMcpListing(
    agent: string,
    server: string,
    tools: readonly McpListedTool[],
    listedAt: number,
  ): Promise<void> {
    await ensureSchema(this.db);
    await this.db
      .prepare(
        `INSERT INTO mcp_listings (agent, server, tools, listed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent, server) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
      )
      .bind(agent, server, JSON.stringify(tools), listedAt)
      .run();
  }

  /** Every recorded listing, by agent and server. */
  async mcpListings(): Promise<Map<string, Map<string, McpListing>>> {
    await ensureSchema(this.db);
    const rows = await this.db
      .prepare('SELECT agent, server, tools, listed_at FROM mcp_listings')
      .all<{ agent: string; server: string; tools: string; listed_at: number }>();
    const byAgent = new Map<string, Map<string, McpListing>>();
    for (const row of rows.results) {
      const servers = byAgent.get(row.agent) ?? new Map<string, McpListing>();
      servers.set(row.server, { tools: JSON.parse(row.tools) as McpListedTool[], listed_at: row.listed_at });
      byAgent.set(row.agent, servers);
    }
    return byAgent;
  }

  async remove(id: string): Promise<void> {
    await ensureSchema(this.db);
    await this.db.batch([
      this.db.prepare('DELETE FROM threads WHERE id = ?').bind(id),
      this.db.prepare('DELETE FROM thread_tags WHERE thread_id = ?').bind(id),
      this.db.prepare('DELETE FROM thread_waits WHERE thread_id = ?').bind(id),
    ]);
  }

  /** The open waits of the threads the principal sees (the thread list's rule), oldest first. */
  async listWaits(
    principal: Principal,
    query: WaitListQuery,
  ): Promise<{ waits: ListedWait[]; next_cursor: string | null }> {
    await ensureSchema(this.db);
    return listWaits(this.db, visibleTo(principal), query);
  }

  async list(query: ThreadListQuery): Promise<{ threads: IndexedThread[]; next_cursor: string | null }> {
    await ensureSchema(this.db);
    const visible = visibleTo(query.principal);
    const where = [...visible.where];
    const params = [...visible.params];
    for (const [column, value] of [
      ['t.agent', query.agent],
      ['t.parent_id', query.parent],
      ['t.forked_from', query.forked_from],
      ['t.status', query.status === WAITING_ON_A_PERSON ? undefined : query.status],
    ] as const) {
      if (value !== undefined) {
        where.push(`${column} = ?`);
        params.push(value);
      }
    }
    if (query.status === WAITING_ON_A_PERSON) where.push('t.person_waits = 1');
    if (query.tag !== undefined) {
      where.push('EXISTS (SELECT 1 FROM thread_tags g WHERE g.thread_id = t.id AND g.tag = ?)');
      params.push(query.tag);
    }
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    if (cursor) {
      where.push('(t.created_at < ? OR (t.created_at = ? AND t.id < ?))');
      params.push(cursor.createdAt, cursor.createdAt, cursor.id);
    }
    const { results } = await this.db
      .prepare(`SELECT * FROM threads t WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.id DESC LIMIT ?`)
      .bind(...params, query.limit + 1)
      .all<Omit<IndexedThread, 'tags' | 'shared'> & { tags: string; shared: number; person_waits: number }>();
    // The row as the API lists it: person_waits is how the index answers ?status=waiting, not a field.
    const rows = results.slice(0, query.limit).map(({ person_waits: _, ...row }) => ({
      ...row,
      forked_from: row.forked_from ?? null,
      shared: row.shared === 1,
      tags: JSON.parse(row.tags) as string[],
    }));
    const last = rows[rows.length - 1];
    return {
      threads: rows,
      next_cursor:
        results.length > query.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }
}
