/**
 * A thread's SQLite storage (THR-1, THR-2): the message log and key-value store, the schema, the
 * numbered stream frames, and the thread's own record.
 */
export { FrameLog } from './frame-log.js';
export { FILES_UNCOUNTED_KEY } from './sql-schema.js';
export { SqliteThreadStore } from './sqlite-store.js';
export type { ThreadRecord } from './thread-meta.js';
export { indexRowFor, recordFor, ThreadMeta } from './thread-meta.js';
