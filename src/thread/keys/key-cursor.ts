/**
 * The opaque cursor of a page of keys: the creation time and id of the last key shown, the order
 * listings use (newest first).
 */
import { KEY_ID_PATTERN } from './key-format.js';

export interface KeyCursor {
  createdAt: number;
  id: string;
}

export function encodeKeyCursor(cursor: KeyCursor): string {
  return btoa(`${cursor.createdAt}.${cursor.id}`).replace(/=+$/, '');
}

/** The position a cursor names, or null when it is not a cursor a listing handed out. */
export function decodeKeyCursor(value: string): KeyCursor | null {
  if (value.length > 64 || !/^[A-Za-z0-9+/]+$/.test(value)) return null;
  let text: string;
  try {
    text = atob(value);
  } catch {
    return null;
  }
  const match = /^(0|[1-9][0-9]{0,15})\.([a-z2-7]+)$/.exec(text);
  if (!match || !KEY_ID_PATTERN.test(match[2] as string)) return null;
  const createdAt = Number(match[1]);
  return Number.isSafeInteger(createdAt) ? { createdAt, id: match[2] as string } : null;
}
