/**
 * Stopping and deleting a thread (THR-5, SUB-7). Both first abort the running turn, then reach the
 * thread's children: a stopped parent stops its children, a deleted one deletes them. A stop also
 * ends a step paused on a wait (its calls answered as stopped, never run); a delete removes the
 * thread's files, its index row and its storage, and closes its sockets.
 */
import { cancelPendingCalls } from '../../engine/conversation/index.js';
import { STOPPED_MESSAGE } from '../../engine/execute/index.js';
import type { Frame } from '../../engine/ports/index.js';
import type { ThreadStatus } from '../../spec/index.js';
import { R2FileStore, type RuntimeEnv, type ThreadIndex, threadStub } from '../bindings/index.js';
import { forEachChild } from '../children/index.js';
import type { AnswerDesk } from '../inbox/index.js';
import type { SqliteThreadStore, ThreadRecord } from '../storage/index.js';
import type { TurnDriver } from '../turn/index.js';
import type { IndexWrites } from './index-writes.js';

export interface EndingHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly driver: TurnDriver;
  readonly index: ThreadIndex;
  readonly indexWrites: IndexWrites;
  store(): SqliteThreadStore;
  answerDesk(): AnswerDesk;
  emit(frame: Frame): void;
  setStatus(status: ThreadStatus, reason?: string): void;
  /** Drops all storage, leaving an empty object that answers "not found". */
  erase(): Promise<void>;
}

export async function stopThread(host: EndingHost, userId: string): Promise<void> {
  await host.driver.abort('stopped');
  await forEachChild(host.answerDesk(), (child) => threadStub(host.env, child).stop(userId, child));
  const store = host.store();
  if (store.openInteractions().length > 0) {
    cancelPendingCalls(store, host.emit, STOPPED_MESSAGE);
    host.setStatus('idle', 'stopped');
    // Messages queued during the wait are delivered now.
    await host.driver.wake();
  }
}

export async function deleteThread(host: EndingHost, userId: string, record: ThreadRecord): Promise<void> {
  await host.driver.abort('deleted');
  await forEachChild(host.answerDesk(), (child) => threadStub(host.env, child).destroy(userId, child));
  await host.indexWrites.settled();
  await new R2FileStore(host.env.FILES, record.id).deleteAll();
  await host.index.remove(record.id);
  for (const socket of host.ctx.getWebSockets()) socket.close(1000, 'thread deleted');
  await host.ctx.storage.deleteAlarm();
  await host.erase();
}
