/**
 * Where a new attachment is stored (ATT-1): under `/attachments/`, its name kept after a fresh id, so
 * two files of one name never meet and a name sent from outside cannot pick a folder (its folders,
 * in either slash, are dropped). A name too long for a path's segment once the id is before it is
 * shortened, its extension kept. The same for a tool's attachments and a user's message files.
 */
import { baseName, MAX_SEGMENT_BYTES } from './thread-path.js';
import { utf8ByteLength, utf8CutIndex } from './truncation.js';

/** A UUID and a dash come before the name. */
const MAX_NAME_BYTES = MAX_SEGMENT_BYTES - 37;

function shortened(name: string): string {
  if (utf8ByteLength(name) <= MAX_NAME_BYTES) return name;
  const extension = /\.[^.]{1,16}$/.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  return stem.slice(0, utf8CutIndex(stem, 0, MAX_NAME_BYTES - utf8ByteLength(extension))) + extension;
}

export function attachmentPath(name: string): string {
  const base = shortened(baseName(name.replace(/\\/g, '/')) || 'attachment');
  return `/attachments/${crypto.randomUUID()}-${base}`;
}
