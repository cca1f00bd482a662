/**
 * The thread's own facts in its SQLite `meta` table: its record (identity, owner, parent), its
 * status and last error. One small key-value table, read on demand.
 */
import type { ThreadInfo } from '../../engine/ports/index.js';
import type { ThreadStatus } from '../../spec/index.js';
import type { CreateThreadInput, IndexedThread } from '../bindings/index.js';

export interface ThreadRecord extends ThreadInfo {
  tags: string[];
  /** The parent's tool call this child answers when it finishes. */
  reportTo?: string;
  /** The child's answer goes to the parent as a message (non-blocking). */
  notifyParent?: boolean;
  /** A resumable instance (SUB-4): each session's answer is reported, not only the first. */
  resumable?: boolean;
}

export class ThreadMeta {
  constructor(private readonly sql: SqlStorage) {}

  get<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  set(key: string, value: unknown): void {
    this.sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, JSON.stringify(value));
  }

  record(): ThreadRecord | null {
    return this.get<ThreadRecord>('thread');
  }

  status(): ThreadStatus {
    return this.get<ThreadStatus>('status') ?? 'idle';
  }
}

export function recordFor(input: CreateThreadInput): ThreadRecord {
  return {
    id: input.id,
    agentId: input.agent,
    userId: input.userId,
    createdAt: Date.now(),
    headless: input.headless,
    parentId: input.parentId ?? null,
    tags: input.tags,
    ...(input.reportTo ? { reportTo: input.reportTo } : {}),
    ...(input.notifyParent ? { notifyParent: true } : {}),
    ...(input.resumable ? { resumable: true } : {}),
  };
}

/** The thread's row in the D1 index (THR-1). */
export function indexRowFor(record: ThreadRecord): IndexedThread {
  return {
    id: record.id,
    agent: record.agentId,
    user_id: record.userId,
    parent_id: record.parentId,
    status: 'idle',
    tags: record.tags,
    created_at: record.createdAt,
    updated_at: record.createdAt,
  };
}
