/**
 * The Tenant object's copy of its issued keys' changing facts — role, revocation, expiry (IDN-2). A
 * key's D1 row is read once into memory; every change to a key is made through the key routes,
 * which tell the object (`forget`) before they answer, so the copy is never stale past the change's
 * own request. A signed-in request then costs one call to an object already in memory instead of a
 * D1 read (about 3 ms under wrangler dev).
 *
 * A read that began before a change may finish after it: the generation counter keeps such a read's
 * answer out of the copy, so the next request reads the row again.
 */
import type { KeyState } from '../bindings/index.js';
import type { ApiKeyRecord } from '../keys/index.js';
import { LAST_USE_RESOLUTION_MS } from '../keys/index.js';

/** Keys kept at most: a flood of distinct ids empties the copy rather than growing it. */
const MAX_KEYS = 10_000;

export interface KeyRows {
  record(id: string): Promise<ApiKeyRecord | null>;
  recordUse(id: string, now: number): Promise<void>;
}

interface Copy {
  state: KeyState;
  lastUsedAt: number | null;
}

export class KeyStates {
  private readonly copies = new Map<string, Copy>();
  private generation = 0;

  constructor(
    private readonly rows: KeyRows,
    private readonly inBackground: (work: Promise<unknown>) => void,
  ) {}

  /** The key's changing facts, or null when no key has this id; notes its use at most once a minute. */
  async state(id: string, now: number): Promise<KeyState | null> {
    let copy = this.copies.get(id);
    if (!copy) {
      const started = this.generation;
      const record = await this.rows.record(id);
      if (!record) return null;
      const state = {
        subject: record.subject,
        role: record.role,
        revoked_at: record.revoked_at,
        expires_at: record.expires_at,
      };
      copy = { state, lastUsedAt: record.last_used_at };
      if (started === this.generation) {
        if (this.copies.size >= MAX_KEYS) this.copies.clear();
        this.copies.set(id, copy);
      }
    }
    if (copy.lastUsedAt === null || copy.lastUsedAt <= now - LAST_USE_RESOLUTION_MS) {
      copy.lastUsedAt = now;
      this.inBackground(this.rows.recordUse(id, now));
    }
    return copy.state;
  }

  /** A key's row changed: the next request reads it again. */
  forget(id: string): void {
    this.generation++;
    this.copies.delete(id);
  }
}
