/**
 * Caps on waits for other threads (WAIT-1): a call waiting for a child thread's answer (`task`, a
 * blocking agent tool) carries a deadline in its stored wait. Past it the call is answered with a
 * timeout that names the child, and the child is left running: its answer, when it comes, arrives as
 * a message instead. The deadline lives in SQLite and is kept by the object's alarm, so it holds when
 * the object is evicted while it waits: nothing in memory has to survive.
 */
import type { FrameSink } from '../../engine/ports/index.js';
import type { Interaction } from '../../spec/index.js';
import type { SqliteThreadStore } from '../storage/index.js';
import type { TurnDriver } from '../turn/index.js';

/** What the caps need of the thread: its stored waits, its alarm, its frames and its loop. */
interface WaitDesk {
  ctx: DurableObjectState;
  store: SqliteThreadStore;
  emit: FrameSink;
  driver: Pick<TurnDriver, 'wake' | 'busy'>;
}

/** What a child wait's payload holds for its cap (set by the tool that started the child). */
interface CappedPayload {
  child_id?: string;
  deadline?: number;
  wait_ms?: number;
}

/** The answer a wait past its deadline gets; the tool reads it as "still running". */
export interface ChildWaitTimeout {
  timed_out: true;
  child_id: string;
  waited_ms: number;
}

function cappedWaits(desk: Pick<WaitDesk, 'store'>): { wait: Interaction; payload: CappedPayload }[] {
  return desk.store
    .openInteractions()
    .filter((wait) => wait.kind === 'subagent')
    .map((wait) => ({ wait, payload: (wait.payload ?? {}) as CappedPayload }))
    .filter(({ payload }) => typeof payload.deadline === 'number');
}

/** Answers every child wait whose deadline has passed; true when one was, and the loop is woken. */
export async function expireChildWaits(desk: WaitDesk, now = Date.now()): Promise<boolean> {
  // A running turn may be reading these waits; its safety alarm comes back within two seconds.
  if (desk.driver.busy) return false;
  let expired = false;
  for (const { wait, payload } of cappedWaits(desk)) {
    if ((payload.deadline as number) > now) continue;
    const answer: ChildWaitTimeout = {
      timed_out: true,
      child_id: payload.child_id ?? '',
      waited_ms: payload.wait_ms ?? now - wait.createdAt,
    };
    if (desk.store.answerInteraction(wait.toolCallId, 'subagent', answer)) {
      desk.emit({ type: 'answered', tool_call_id: wait.toolCallId, kind: 'subagent' });
      expired = true;
    }
  }
  if (expired) await desk.driver.wake();
  return expired;
}

/**
 * Keeps the object's alarm no later than the earliest open deadline. The alarm is the only timer an
 * evicted object has; the turn's own alarms replace it while a turn runs, so this is called at the
 * end of every alarm, where turns run. No other event reaches the object between the read and the
 * write: storage operations hold its input gate.
 */
export async function armChildWaitAlarm(desk: Pick<WaitDesk, 'store' | 'ctx'>): Promise<void> {
  const deadlines = cappedWaits(desk).map(({ payload }) => payload.deadline as number);
  if (deadlines.length === 0) return;
  const earliest = Math.min(...deadlines);
  const alarm = await desk.ctx.storage.getAlarm();
  if (alarm === null || alarm > earliest) await desk.ctx.storage.setAlarm(earliest);
}

/** Whether a child wait was ended by its cap: a late answer from that child becomes a message. */
export function timedOutChildWait(desk: Pick<WaitDesk, 'store'>, toolCallId: string, childId: string): boolean {
  const wait = desk.store.interactions(toolCallId).find((candidate) => candidate.kind === 'subagent');
  const answer = wait?.answer as Partial<ChildWaitTimeout> | undefined;
  return wait?.answered === true && answer?.timed_out === true && answer.child_id === childId;
}
