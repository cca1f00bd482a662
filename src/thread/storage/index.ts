/** The storage room's door: what the rest of the runtime may use of it. */
export { FrameLog } from './frame-log.js';
export { migrate } from './sql-schema.js';
export { SqliteThreadStore } from './sqlite-store.js';
export type { ThreadRecord } from './thread-meta.js';
export { indexRowFor, recordFor, ThreadMeta } from './thread-meta.js';
