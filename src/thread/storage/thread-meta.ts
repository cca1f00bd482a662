/**
 * The thread's own facts in its SQLite `meta` table: its record (identity, owner, parent), its
 * status and last error. One small key-value table, read once per key: the object is its only
 * writer, and a turn asks for the status and the record again and again.
 */
import type { ThreadInfo } from '../../engine/ports/index.js';
import type { ThreadStatus } from '../../spec/index.js';
import { DEFAULT_TENANT, type ThreadOwnership } from '../access/index.js';
import type { CreateThreadInput, ForkedFrom, IndexedThread } from '../bindings/index.js';
import { hasSchema, migrate } from './sql-schema.js';

export interface ThreadRecord extends ThreadInfo {
  tags: string[];
  /** The parent's tool call this child answers when it finishes. */
  reportTo?: string;
  /** The child's answer goes to the parent as a message (non-blocking). */
  notifyParent?: boolean;
  /** A resumable instance (SUB-4): each session's answer is reported, not only the first. */
  resumable?: boolean;
  /** The tenant (IDN-1); absent on threads made before tenants, which belong to the default tenant. */
  tenant?: string;
  /** Visible to the whole tenant (IDN-1). */
  shared?: boolean;
  /** The thread and message this thread was forked from (FORK-2); null message: forked before the first. */
  forkedFrom?: ForkedFrom;
}

/** Who owns the thread and who else sees it, as the access rule reads them (IDN-1). */
export function ownershipOf(record: ThreadRecord): ThreadOwnership {
  return { tenant: record.tenant ?? DEFAULT_TENANT, userId: record.userId, shared: record.shared === true };
}

export class ThreadMeta {
  /** Rows as stored (JSON text, null for none). */
  private readonly rows = new Map<string, string | null>();
  /** Whether the object has its tables: not until a thread is created in it. */
  private present: boolean | null = null;
  /** Values given to `setSoon`, written with the next `set`. */
  private readonly soon = new Map<string, string>();

  private readonly sql: SqlStorage;

  constructor(storage: DurableObjectStorage) {
    this.sql = storage.sql;
  }

  /** When the object starts: one a thread lives in is brought up to date, any other keeps no tables. */
  wake(): void {
    this.present = hasSchema(this.sql);
    if (this.present) migrate(this.sql);
  }

  /** Creates the thread's tables (or brings older ones up to date) before a thread is written. */
  prepare(): void {
    migrate(this.sql);
    this.present = true;
  }

  /** A fresh copy on every read: a caller changing what it got changes nothing stored. */
  get<T>(key: string): T | null {
    this.present ??= hasSchema(this.sql);
    if (!this.present) return null;
    let text = this.rows.get(key);
    if (text === undefined) {
      text = this.sql.exec<{ value: string }>('SELECT value FROM meta WHERE key = ?', key).toArray()[0]?.value ?? null;
      this.rows.set(key, text);
    }
    return text === null ? null : (JSON.parse(text) as T);
  }

  set(key: string, value: unknown): void {
    this.soon.delete(key);
    this.write(key, JSON.stringify(value));
    for (const [waiting, text] of this.soon) this.write(waiting, text);
    this.soon.clear();
  }

  /**
   * A value not worth a transaction of its own: read back at once, written with the next `set` (a
   * turn's first status is one). An instance that dies first loses it, so this is only for a value
   * whose loss costs a repeat, such as how far D1 has been told something it ignores twice; never
   * for a fact. Written on its own, after D1 answers, it would be a storage commit of its own.
   */
  setSoon(key: string, value: unknown): void {
    const text = JSON.stringify(value);
    this.soon.set(key, text);
    this.rows.set(key, text);
  }

  private write(key: string, text: string): void {
    this.sql.exec('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, text);
    this.rows.set(key, text);
  }

  /** After the storage was erased, or a transaction that wrote here was rolled back. */
  forget(): void {
    this.soon.clear();
    this.rows.clear();
    this.present = null;
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
    tenant: input.tenant,
    ...(input.shared ? { shared: true } : {}),
    createdAt: Date.now(),
    headless: input.headless,
    parentId: input.parentId ?? null,
    tags: input.tags,
    ...(input.reportTo ? { reportTo: input.reportTo } : {}),
    ...(input.notifyParent ? { notifyParent: true } : {}),
    ...(input.resumable ? { resumable: true } : {}),
    ...(input.fork ? { forkedFrom: input.fork.from } : {}),
  };
}

/** The thread's row in the D1 index (THR-1). */
export function indexRowFor(record: ThreadRecord): IndexedThread {
  return {
    id: record.id,
    agent: record.agentId,
    tenant: record.tenant ?? DEFAULT_TENANT,
    user_id: record.userId,
    shared: record.shared === true,
    parent_id: record.parentId,
    forked_from: record.forkedFrom?.thread_id ?? null,
    status: 'idle',
    tags: record.tags,
    created_at: record.createdAt,
    updated_at: record.createdAt,
  };
}
