/**
 * Where a new attachment is stored (ATT-1): under `/attachments/`, its name kept after a fresh id, so
 * two files of one name never meet and a name sent from outside cannot pick a folder (its folders,
 * in either slash, are dropped). The same for a tool's attachments and a user's message files.
 */
import { baseName } from './thread-path.js';

export function attachmentPath(name: string): string {
  const base = baseName(name.replace(/\\/g, '/')) || 'attachment';
  return `/attachments/${crypto.randomUUID()}-${base}`;
}
