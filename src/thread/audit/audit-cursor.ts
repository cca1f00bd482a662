/**
 * The opaque cursor of an audit page: the id of the last entry shown, so the next page starts
 * strictly after it whatever is appended in between.
 */

const PREFIX = 'a';

export function encodeAuditCursor(id: number): string {
  return btoa(`${PREFIX}${id}`).replace(/=+$/, '');
}

/** The entry id a cursor names, or null when it is not a cursor this log handed out. */
export function decodeAuditCursor(value: string): number | null {
  if (value.length > 32 || !/^[A-Za-z0-9+/]+$/.test(value)) return null;
  let text: string;
  try {
    text = atob(value);
  } catch {
    return null;
  }
  const match = /^a([1-9][0-9]{0,14})$/.exec(text);
  return match ? Number(match[1]) : null;
}
