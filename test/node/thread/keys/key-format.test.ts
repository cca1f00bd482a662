/**
 * IDN-2, IDN-9: issued keys' shape and digest comparison in Node, where crypto.subtle has no
 * timingSafeEqual and the comparison falls back to its own constant-time loop.
 */
import { describe, expect, it } from 'vitest';
import { digestsEqual, KEY_ID_PATTERN, keyDigest, keyIdOf } from '../../../../src/thread/keys/index.js';
import { newKey, newKeyId } from '../../../../src/thread/keys/key-format.js';

describe('IDN-2: issued key format', () => {
  it('a key is sak_, a 10-character base32 id, _ and 43 base64url characters; its id is read back', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = newKeyId();
      expect(id).toMatch(KEY_ID_PATTERN);
      ids.add(id);
      const key = newKey(id);
      expect(key).toMatch(/^sak_[a-z2-7]{10}_[A-Za-z0-9_-]{43}$/);
      expect(keyIdOf(key)).toBe(id);
    }
    expect(ids.size).toBe(200);
  });

  it('reads no id from anything else', () => {
    const key = newKey(newKeyId());
    for (const token of [
      'sak_',
      `${key}x`,
      key.slice(0, -1),
      key.toUpperCase(),
      ` ${key}`,
      `sak_${'a'.repeat(10_000)}`,
    ]) {
      expect(keyIdOf(token), token.slice(0, 30)).toBeNull();
    }
  });
});

describe('IDN-9: digest comparison without timingSafeEqual', () => {
  it('equal digests are equal; a digest differing anywhere, or of another length, is not', async () => {
    expect('timingSafeEqual' in crypto.subtle).toBe(false);
    const digest = await keyDigest('sak_example');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(digest, await keyDigest('sak_example'))).toBe(true);
    for (const index of [0, 31, 63]) {
      const other = digest.slice(0, index) + (digest[index] === '0' ? '1' : '0') + digest.slice(index + 1);
      expect(digestsEqual(digest, other)).toBe(false);
    }
    expect(digestsEqual(digest, digest.slice(0, 63))).toBe(false);
    expect(digestsEqual(digest, '')).toBe(false);
  });
});
