/**
 * What an issued API key looks like (IDN-2): `sak_<id>_<secret>`. The id (10 base32 characters) names
 * the key's row, so a request reads exactly one row by its primary key; the secret (32 random bytes,
 * base64url) is what makes the key unguessable. Only the SHA-256 of the whole key is stored: the key is
 * shown once, when it is made, and can never be shown again.
 */

/** Every issued key starts with this, so sign-in knows at a glance whose kind of token it is. */
export const KEY_PREFIX = 'sak_';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_LENGTH = 10;
const SECRET_BYTES = 32;
/** 32 bytes in base64url without padding. */
const SECRET_LENGTH = 43;

/** An id as a key carries it and as routes take it. */
export const KEY_ID_PATTERN = /^[a-z2-7]{10}$/;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}([a-z2-7]{${ID_LENGTH}})_([A-Za-z0-9_-]{${SECRET_LENGTH}})$`);

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh key id: 50 random bits (each byte's low five bits, so every character is equally likely). */
export function newKeyId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_LENGTH));
  return [...bytes].map((byte) => ID_ALPHABET[byte & 31]).join('');
}

/** A fresh key for `id`, the only time its secret exists outside the caller's hands. */
export function newKey(id: string): string {
  return `${KEY_PREFIX}${id}_${base64url(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

/** How a key is named in listings and logs: the prefix and the id, never the secret. */
export function keyPrefix(id: string): string {
  return `${KEY_PREFIX}${id}`;
}

/** The id an issued key names, or null when the token is not shaped like one. */
export function keyIdOf(token: string): string | null {
  return KEY_PATTERN.exec(token)?.[1] ?? null;
}
