/**
 * Entity tags for answers a client asks for again and again (the thread list a page keeps live): the
 * tag names the exact bytes of the body, so `If-None-Match` with the tag of the last answer gets a
 * `304` without a body while nothing changed. Built from the body itself, a tag cannot say "same"
 * about two different answers, whatever the reason they differ.
 */

/** A strong tag for these bytes: the first 144 bits of their SHA-256, in base64url. */
export async function entityTag(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  const text = btoa(String.fromCharCode(...digest.subarray(0, 18)));
  return `"${text.replaceAll('+', '-').replaceAll('/', '_')}"`;
}

/**
 * Whether an `If-None-Match` value names `tag` (RFC 9110 §13.1.2): `*`, or a list of tags compared
 * weakly (a `W/` prefix is ignored). Anything else, malformed or not, is simply no match: the client
 * gets the whole answer.
 */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  return value.split(',').some((part) => part.trim().replace(/^W\//, '') === tag);
}
