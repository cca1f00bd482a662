/**
 * API keys as data (IDN-2): keys issued through the API, kept in D1 as hashes, each with its tenant,
 * subject and role, revocable and rotatable at once. Sign-in reads a key's row by its id on every
 * request, so a revoked or expired key stops working on the very next one.
 */
export type { ApiKeyListing, ApiKeyPage, ApiKeyRecord, IssuedApiKey, NewApiKey } from './api-key.js';
export { digestsEqual, keyDigest } from './key-digest.js';
export { KEY_ID_PATTERN, KEY_PREFIX, keyIdOf } from './key-format.js';
export { ApiKeyStore, InvalidKeyCursor, LAST_USE_RESOLUTION_MS } from './key-store.js';
