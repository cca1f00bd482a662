/**
 * Forks, edits and rewinds of a thread (FORK-1 to FORK-6): which points of the log they may start
 * from, the fork made by the source's object, and the rewind in place, over the thread's file history
 * (thread/files).
 */
export { forkThread } from './fork-thread.js';
export type { HistoryDesk } from './history-desk.js';
export { firstPointAbove, logPoint, type PointAnswer } from './log-points.js';
export { type Rewound, rewindThread, type SideEffectCall, sideEffectCalls } from './rewind-thread.js';
