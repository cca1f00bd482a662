/**
 * Stopping and deleting a thread (THR-5, SUB-7). Both first abort the running turn, then reach the
 * thread's children: a stopped parent stops its children, a deleted one deletes them. A stop also
 * ends a step paused on a wait (its calls answered as stopped, never run); a delete removes the
 * thread's files, its index row and its storage, and closes its sockets.
 */
import { cancelPendingCalls } from '../../engine/conversation/index.js';
import { STOPPED_MESSAGE } from '../../engine/execute/index.js';
import type { ThreadStatus } from '../../spec/index.js';
import type { Principal } from '../access/index.js';
import { R2FileStore, type ThreadIndex, threadStub } from '../bindings/index.js';
import { forEachChild } from '../children/index.js';
import { FileHistory, FileUndoJournal } from '../files/index.js';
import type { AnswerDesk } from '../inbox/index.js';
import type { ThreadRecord } from '../storage/index.js';
import type { IndexWrites } from './index-writes.js';

export interface EndingHost {
  /** The thread's store, frames, driver and bindings, as its answers see them. */
  readonly desk: AnswerDesk;
  readonly index: ThreadIndex;
  readonly indexWrites: IndexWrites;
  setStatus(status: ThreadStatus, reason?: string): void;
  /** Drops all storage, leaving an empty object that answers "not found". */
  erase(): Promise<void>;
}

export async function stopThread({ desk, setStatus }: EndingHost, principal: Principal): Promise<void> {
  await desk.driver.abort('stopped');
  await forEachChild(desk, (child) => threadStub(desk.env, child).stop(principal, child));
  if (desk.store.openInteractions().length > 0) {
    cancelPendingCalls(desk.store, desk.emit, STOPPED_MESSAGE);
    setStatus('idle', 'stopped');
    // Messages queued during the wait are delivered now.
    await desk.driver.wake();
  }
}

export async function deleteThread(host: EndingHost, principal: Principal, record: ThreadRecord): Promise<void> {
  const { desk } = host;
  await desk.driver.abort('deleted');
  await forEachChild(desk, (child) => threadStub(desk.env, child).destroy(principal, child));
  await host.indexWrites.settled();
  await new R2FileStore(desk.env.FILES, record.id).deleteAll();
  // A turn's undo copies (on_busy rollback) are kept beside the files: they go too.
  await FileUndoJournal.deleteAll(desk.env.FILES, record.id);
  // FORK-5: so are the copies of its file history.
  await FileHistory.deleteAll(desk.env.FILES, record.id);
  await host.index.remove(record.id);
  for (const socket of desk.ctx.getWebSockets()) socket.close(1000, 'thread deleted');
  await desk.ctx.storage.deleteAlarm();
  await host.erase();
}
