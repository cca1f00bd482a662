/**
 * The `api_keys` table in D1 (IDN-2), created on first use in an isolate like the thread index, so a
 * fresh database needs no migration step. One row per key; the key itself is never stored, only the
 * SHA-256 of it.
 */
import { schemaOnFirstUse } from '../bindings/index.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    prefix TEXT NOT NULL,
    hash TEXT NOT NULL,
    tenant TEXT NOT NULL,
    subject TEXT NOT NULL,
    role TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    last_used_at INTEGER,
    expires_at INTEGER,
    revoked_at INTEGER,
    replaced_by TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS api_keys_by_tenant ON api_keys (tenant, created_at DESC, id DESC)',
];

export const ensureKeySchema = schemaOnFirstUse(SCHEMA);
