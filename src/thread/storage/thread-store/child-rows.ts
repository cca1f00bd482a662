/**
 * The child threads a thread started (`children`): their ids and start times, read once and then
 * answered from memory, and the registry's facts and statuses beside them (child-registry.ts).
 */
import type { ChildEntry } from '../../../engine/ports/index.js';
import { type ChildFacts, childEntries, type KeyValues, recordChild, setChildStatus } from './child-registry.js';

export class ChildRows {
  /** The ids, oldest first; null until read. */
  private ids: string[] | null = null;
  /**
   * Statuses of children not recorded yet: a child reports its first turn while its parent still
   * waits for the answer that creates it. Kept in memory only, and only a few.
   */
  private readonly earlyStatuses = new Map<string, string>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly values: KeyValues,
  ) {}

  /** A thread being created has none. */
  startEmpty(): void {
    this.ids = [];
  }

  /** After a transaction that threw: read again from what SQLite kept. */
  forget(): void {
    this.ids = null;
  }

  /** Records a child thread; with `facts`, in the registry `state.children` shows, as running. */
  add(id: string, facts?: ChildFacts): void {
    this.sql.exec('INSERT OR IGNORE INTO children (id, created_at) VALUES (?, ?)', id, Date.now());
    const known = this.list();
    if (!known.includes(id)) known.push(id);
    if (facts) recordChild(this.values, id, facts, this.earlyStatuses.get(id));
    this.earlyStatuses.delete(id);
  }

  /** The child threads, oldest first. */
  all(): string[] {
    return [...this.list()];
  }

  entries(): ChildEntry[] {
    const rows = this.sql
      .exec<{ id: string; created_at: number }>('SELECT id, created_at FROM children ORDER BY created_at')
      .toArray();
    const started = rows.map((row) => ({ id: row.id, createdAt: row.created_at }));
    return childEntries(this.values, started);
  }

  setStatus(childId: string, status: string, fromTurn = false): boolean {
    const known = this.list();
    if (!known.includes(childId) && this.earlyStatuses.size < 16 && typeof status === 'string') {
      this.earlyStatuses.set(childId, status);
    }
    return setChildStatus(this.values, known, childId, status, fromTurn);
  }

  private list(): string[] {
    this.ids ??= this.sql
      .exec<{ id: string }>('SELECT id FROM children ORDER BY created_at')
      .toArray()
      .map((row) => row.id);
    return this.ids;
  }
}
