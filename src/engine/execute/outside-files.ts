/**
 * Files the model did not write (INJ-1): a client's upload came from outside the thread, so a
 * read-only tool that reads it back (`read`, `grep`, `glob`, or any `readOnly` tool whose `access`
 * names it among its reads) hands the model outside text, marked like a web page. The thread remembers the uploaded paths; a
 * path stays marked after the model rewrites it, erring on the side of the notice.
 */
import type { AnyToolDefinition } from '../../spec/index.js';
import { normalizeThreadPath } from '../files/index.js';
import type { ThreadStore } from '../ports/index.js';

/** Runtime-internal store key: the paths of the thread's files that came from outside. */
const OUTSIDE_FILES_KEY = 'runtime:outside_files';

function outsideFiles(store: ThreadStore): string[] {
  return (store.getValue(OUTSIDE_FILES_KEY) as string[] | undefined) ?? [];
}

/** Called when a client's upload was stored at `path` (a normalised thread path). */
export function noteOutsideFile(store: ThreadStore, path: string): void {
  const known = outsideFiles(store);
  if (!known.includes(path)) store.setValue(OUTSIDE_FILES_KEY, [...known, path]);
}

/** Whether `read` is an outside file or a folder holding one. */
function touches(read: string, outside: readonly string[]): boolean {
  let path: string;
  try {
    path = normalizeThreadPath(read);
  } catch {
    return false;
  }
  const folder = path.endsWith('/') ? path : `${path}/`;
  return outside.some((file) => file === path || file.startsWith(folder));
}

/** Whether a call's declared reads (its `access`), other than paths it also writes, touch an outside file. */
export function readsOutsideFile(
  store: ThreadStore,
  definition: AnyToolDefinition | undefined,
  rawArguments: string,
): boolean {
  // Read-only tools hand back what they read; others (an agent given the file) answer in their own words.
  // Checked before the store is read: most results come from tools that are not.
  if (!definition?.access || !definition.readOnly) return false;
  const outside = outsideFiles(store);
  if (outside.length === 0) return false;
  try {
    const access = definition.access as (input: unknown) => { read?: string[]; write?: string[] };
    const { read = [], write = [] } = access(JSON.parse(rawArguments || '{}'));
    // A call that also writes the path (edit) answers with the runtime's own words, not the file's.
    return read.some((path) => typeof path === 'string' && !write.includes(path) && touches(path, outside));
  } catch {
    // Arguments a tool could not take: the call failed before reading anything.
    return false;
  }
}
