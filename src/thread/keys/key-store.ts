/**
 * Issued API keys in D1 (IDN-2): making, listing, rotating, revoking and changing them, and the one
 * read sign-in does per request — a key's row by its id, the primary key. Every statement here is
 * bound, never built from what a caller sent; tenants are the caller's business (the routes check
 * them), the store only keeps rows.
 */
import { isRole } from '../access/index.js';
import type { ApiKeyListing, ApiKeyPage, ApiKeyRecord, IssuedApiKey, NewApiKey } from './api-key.js';
import { decodeKeyCursor, encodeKeyCursor } from './key-cursor.js';
import { keyDigest } from './key-digest.js';
import { keyPrefix, newKey, newKeyId } from './key-format.js';
import { ensureKeySchema } from './key-schema.js';

/** How often a key's `last_used_at` is written at most: one cheap conditional UPDATE a minute. */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** Tries at a fresh id when one is taken (50 random bits: never in practice, but never a lost key). */
const ID_ATTEMPTS = 3;

const LISTED_COLUMNS =
  'id, prefix, tenant, subject, role, name, created_at, created_by, last_used_at, expires_at, revoked_at, replaced_by';

/** Thrown for an `after` that is not a cursor a listing handed out. */
export class InvalidKeyCursor extends Error {
  constructor() {
    super('after is not a cursor from a previous page of keys');
  }
}

/** A row as read: a role the code does not know (written by hand) counts as the weakest. */
function listingOfRow<T extends ApiKeyListing>(row: T): T {
  return isRole(row.role) ? row : { ...row, role: 'viewer' };
}

export class ApiKeyStore {
  constructor(private readonly db: D1Database) {}

  /** Makes a key; the answer holds the key itself, which is never stored and never shown again. */
  async create(input: NewApiKey, now = Date.now()): Promise<IssuedApiKey> {
    await ensureKeySchema(this.db);
    for (let attempt = 1; ; attempt++) {
      const id = newKeyId();
      const key = newKey(id);
      const listing: ApiKeyListing = {
        id,
        prefix: keyPrefix(id),
        tenant: input.tenant,
        subject: input.subject ?? `key_${id}`,
        role: input.role,
        name: input.name,
        created_at: now,
        created_by: input.created_by,
        last_used_at: null,
        expires_at: input.expires_at,
        revoked_at: null,
        replaced_by: null,
      };
      const { meta } = await this.db
        .prepare(
          `INSERT OR IGNORE INTO api_keys (id, prefix, hash, tenant, subject, role, name, created_at, created_by, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          id,
          listing.prefix,
          await keyDigest(key),
          listing.tenant,
          listing.subject,
          listing.role,
          listing.name,
          now,
          listing.created_by,
          listing.expires_at,
        )
        .run();
      if (meta.changes === 1) return { key, listing };
      if (attempt >= ID_ATTEMPTS) throw new Error('no free key id after several tries');
    }
  }

  /** The stored row, hash included: what sign-in compares against. */
  async record(id: string): Promise<ApiKeyRecord | null> {
    await ensureKeySchema(this.db);
    const row = await this.db.prepare('SELECT * FROM api_keys WHERE id = ?').bind(id).first<ApiKeyRecord>();
    return row ? listingOfRow(row) : null;
  }

  /** A key's listing, without its hash. */
  async listing(id: string): Promise<ApiKeyListing | null> {
    await ensureKeySchema(this.db);
    const row = await this.db
      .prepare(`SELECT ${LISTED_COLUMNS} FROM api_keys WHERE id = ?`)
      .bind(id)
      .first<ApiKeyListing>();
    return row ? listingOfRow(row) : null;
  }

  /** A page of a tenant's keys, newest first, revoked ones included. */
  async list(tenant: string, options: { after?: string; limit: number }): Promise<ApiKeyPage> {
    const cursor = options.after === undefined ? null : decodeKeyCursor(options.after);
    if (options.after !== undefined && cursor === null) throw new InvalidKeyCursor();
    await ensureKeySchema(this.db);
    const where = cursor ? 'AND (created_at < ? OR (created_at = ? AND id < ?))' : '';
    const params = cursor ? [cursor.createdAt, cursor.createdAt, cursor.id] : [];
    const { results } = await this.db
      .prepare(
        `SELECT ${LISTED_COLUMNS} FROM api_keys WHERE tenant = ? ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .bind(tenant, ...params, options.limit + 1)
      .all<ApiKeyListing>();
    const keys = results.slice(0, options.limit).map(listingOfRow);
    const last = keys[keys.length - 1];
    const more = results.length > options.limit && last;
    return { keys, next: more ? encodeKeyCursor({ createdAt: last.created_at, id: last.id }) : null };
  }

  /** Revokes a key from `now` on; a key already revoked keeps its first revocation time. */
  async revoke(id: string, now = Date.now()): Promise<ApiKeyListing | null> {
    await ensureKeySchema(this.db);
    await this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').bind(now, id).run();
    return this.listing(id);
  }

  /**
   * A new key in the place of `id` — same tenant, subject, role, name and expiry — and `id` revoked
   * at once, pointing at it. Both happen in one batch (one transaction), and only while `id` is not
   * revoked: of two rotations racing, one makes a key and the other gets null.
   */
  async rotate(id: string, createdBy: string, now = Date.now()): Promise<IssuedApiKey | null> {
    await ensureKeySchema(this.db);
    const newId = newKeyId();
    const key = newKey(newId);
    const [inserted] = await this.db.batch([
      this.db
        .prepare(
          `INSERT INTO api_keys (id, prefix, hash, tenant, subject, role, name, created_at, created_by, expires_at)
           SELECT ?, ?, ?, tenant, subject, role, name, ?, ?, expires_at FROM api_keys
           WHERE id = ? AND revoked_at IS NULL`,
        )
        .bind(newId, keyPrefix(newId), await keyDigest(key), now, createdBy, id),
      this.db
        .prepare('UPDATE api_keys SET revoked_at = ?, replaced_by = ? WHERE id = ? AND revoked_at IS NULL')
        .bind(now, newId, id),
    ]);
    if (inserted?.meta.changes !== 1) return null;
    const listing = await this.listing(newId);
    return listing ? { key, listing } : null;
  }

  /** Changes a key's role and name; the listing after the change. */
  async update(
    id: string,
    change: { role?: ApiKeyListing['role']; name?: string | null },
  ): Promise<ApiKeyListing | null> {
    await ensureKeySchema(this.db);
    if (change.role !== undefined) {
      await this.db.prepare('UPDATE api_keys SET role = ? WHERE id = ?').bind(change.role, id).run();
    }
    if (change.name !== undefined) {
      await this.db.prepare('UPDATE api_keys SET name = ? WHERE id = ?').bind(change.name, id).run();
    }
    return this.listing(id);
  }

  /**
   * Records that the key was used at `now`, unless that was already recorded within the last minute:
   * the condition is in the UPDATE, so concurrent requests write at most once between them.
   */
  async recordUse(id: string, now = Date.now()): Promise<void> {
    await ensureKeySchema(this.db);
    await this.db
      .prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)')
      .bind(now, id, now - LAST_USE_RESOLUTION_MS)
      .run();
  }
}
