/**
 * Terminating a thread (`state.terminate`, `POST /api/threads/:id/terminate`): a terminal state of
 * its own, neither a stop (after which the thread runs again) nor a delete (which erases it). The
 * time goes into the thread's record, where every later message, queued tool, effect and turn finds
 * it and is refused (its waiting effects are cancelled); the running turn is aborted and the children stopped, as a stop does; calls
 * waiting for an answer are answered as stopped; the status becomes `terminated` (the D1 index
 * too); the parent hears of it as of a child that ended. A second termination does nothing.
 */

import type { TurnOutcome } from '../../engine/conversation/index.js';
import { cancelPendingCalls } from '../../engine/conversation/index.js';
import { DEFAULT_TENANT, type Principal } from '../access/index.js';
import { threadStub } from '../bindings/index.js';
import { forEachChild } from '../children/index.js';
import type { ThreadRecord } from '../storage/index.js';
import type { EndingHost } from './thread-ending.js';

export const TERMINATED_MESSAGE = 'The thread was terminated while this tool was running.';

export interface TerminationHost extends EndingHost {
  /** The parent hears how the thread ended (SUB-7), as after a session. */
  report(outcome: TurnOutcome): void;
  /** Cancels the effects still waiting: a terminated thread runs none. */
  cancelEffects(): void;
}

/** Who acts on the thread's children when the thread itself terminates: its owner. */
export function ownerPrincipal(record: ThreadRecord): Principal {
  return { tenant: record.tenant ?? DEFAULT_TENANT, subject: record.userId ?? '', role: 'member', via: 'thread' };
}

/**
 * Terminates the thread. `fromTurn`: asked by a call of the running turn, which is aborted and not
 * waited for (it waits for that call); the turn records its end as terminated when it unwinds.
 */
export async function terminateThread(host: TerminationHost, principal: Principal, fromTurn: boolean): Promise<void> {
  const { desk } = host;
  const { store, driver } = desk;
  if (typeof store.info.terminatedAt === 'number') return;
  const running = driver.busy;
  store.markTerminated(Date.now());
  host.cancelEffects();
  if (fromTurn) driver.abortNow('terminated');
  else await driver.abort('terminated');
  await forEachChild(desk, (child) => threadStub(desk.env, child).stop(principal, child));
  if (store.openInteractions().length > 0) cancelPendingCalls(store, desk.emit, TERMINATED_MESSAGE);
  host.setStatus('terminated', 'terminated');
  // An aborted turn has told the parent as it ended; a thread at rest tells it now.
  if (!running) host.report({ kind: 'stopped' });
}
