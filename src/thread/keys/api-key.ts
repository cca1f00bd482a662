/**
 * An issued API key as it is stored and as it is listed (IDN-2). The listing is everything but the
 * hash: enough to tell keys apart (`prefix`), see who holds them and what they may do, and see when
 * they were last used, revoked or replaced.
 */
import type { Role } from '../access/index.js';

export interface ApiKeyListing {
  id: string;
  /** `sak_<id>`: how the key is recognised, the secret left out. */
  prefix: string;
  tenant: string;
  /** The principal's subject the key signs in as: the owner of the threads it starts. */
  subject: string;
  role: Role;
  name: string | null;
  /** Epoch milliseconds, as every time here. */
  created_at: number;
  /** The subject that made the key. */
  created_by: string;
  /** Recorded at most once a minute. */
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  /** The key a rotation made in this one's place. */
  replaced_by: string | null;
}

/** The stored row: the listing and the SHA-256 of the key. */
export interface ApiKeyRecord extends ApiKeyListing {
  hash: string;
}

/** What making a key takes; the id, the secret and the times are the store's. */
export interface NewApiKey {
  tenant: string;
  /** Defaults to `key_<id>`. */
  subject?: string;
  role: Role;
  name: string | null;
  expires_at: number | null;
  created_by: string;
}

/** A key just made: the key itself, shown this once, and its listing. */
export interface IssuedApiKey {
  key: string;
  listing: ApiKeyListing;
}

export interface ApiKeyPage {
  keys: ApiKeyListing[];
  /** The cursor of the next page, or null on the last. */
  next: string | null;
}
