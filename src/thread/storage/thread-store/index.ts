/**
 * The ThreadStore over a thread's SQLite (THR-1, THR-2): its message log, key-value entries, queued
 * messages, the calls under way, the waits of its calls and its child threads, each read from SQLite
 * once and then answered from memory.
 */
export type { ChildFacts } from './child-registry.js';
export { MAX_CHILD_STATUS_LENGTH } from './child-registry.js';
export { SqliteThreadStore } from './sqlite-store.js';
