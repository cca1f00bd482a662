/**
 * A thread's files under its storage quota (ATT-1, ATT-6): the R2 store every write of the object
 * passes, the ledger of sizes in the thread's SQLite that the quota is checked against, and the
 * lifetime of truncation sidecars (SIDE-1); the file history forks and rewinds read (FORK-5).
 */
export type { StorageUsage } from './counted-file-store.js';
export { CountedFileStore } from './counted-file-store.js';
export type { FileAtPoint } from './file-history.js';
export { FileHistory, historyPrefix } from './file-history.js';
export type { CountedFile } from './file-ledger.js';
export { FileLedger, StorageQuotaExceeded } from './file-ledger.js';
export type { SidecarDesk } from './sidecar-sweep.js';
export { armSidecarAlarm, sweepSidecars } from './sidecar-sweep.js';
export { FileUndoJournal, undoPrefix } from './undo-journal.js';
export { storeUpload } from './uploads.js';
