/**
 * An issued key's digest and its comparison (IDN-2, IDN-9). The stored hash is SHA-256 of the whole
 * key, as lowercase hex; a presented key is hashed the same way and compared in constant time, so how
 * long the comparison takes says nothing about how much of a guess was right.
 */

const encoder = new TextEncoder();

export async function keyDigest(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** workerd's own constant-time comparison, where it exists (not in Node). */
type TimingSafeSubtle = SubtleCrypto & { timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean };

/** Whether two digests are equal, in time that depends only on their length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.byteLength !== right.byteLength) return false;
  const subtle = crypto.subtle as TimingSafeSubtle;
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(left, right);
  let difference = 0;
  for (let index = 0; index < left.byteLength; index++) {
    difference |= (left[index] as number) ^ (right[index] as number);
  }
  return difference === 0;
}
