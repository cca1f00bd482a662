/**
 * Firing a thread's due schedules from its alarm, before the turn runs so a fired message starts it.
 * Each due schedule fires for one tick (a backlog collapses into its latest tick; a tick later than
 * the grace is missed, fired once or skipped as the schedule says). The message goes through
 * `acceptMessage` with the schedule's `on_busy`, like a client's, and the tick is recorded in the
 * transaction that stores it: the record moves only past the tick it holds, so a tick whose message
 * is stored is never stored again, whether the alarm runs twice or the object restarts in between.
 * A message the thread refuses (busy under `reject`, a full inbox), or the owner's running-turns
 * limit, consumes the tick: the refusal is the tick's recorded outcome. `schedule.fired` is published for each message stored.
 */
import { dueTick } from '../../engine/schedules/index.js';
import type { OnBusy } from '../../spec/index.js';
import { type AnswerDesk, acceptMessage } from '../inbox/index.js';
import type { ScheduleRow } from '../storage/index.js';
import { publishEvent } from '../webhooks/index.js';
import type { ScheduleDesk } from './thread-schedules.js';

/** How many schedules one alarm fires at most; the rest fire at the next alarm, set at once. */
const FIRES_PER_ALARM = 20;

/** The tick was recorded already: the message stored with it is undone. */
class TickTaken extends Error {}

export interface FiringDesk extends ScheduleDesk {
  answers(): AnswerDesk;
  /** The thread's tenant and owner, for the `schedule.fired` event. */
  owner(): { tenant: string; owner: string };
  /** A turn slot for the message's turn, taken as a posted message takes one: the refusal's code, or null. */
  admitTurn?(): Promise<string | null>;
}

/** Fires the schedules due by `now`; never throws for one schedule's failure. */
export async function fireDueSchedules(desk: FiringDesk, now = Date.now()): Promise<void> {
  if (typeof desk.store().info.terminatedAt === 'number') return;
  const due = desk.rows().due(now).slice(0, FIRES_PER_ALARM);
  for (const row of due) {
    try {
      await fireOne(desk, row, now);
    } catch (error) {
      console.error(`schedule ${row.id} of thread ${desk.store().info.id} failed to fire:`, error);
    }
  }
}

async function fireOne(desk: FiringDesk, row: ScheduleRow, now: number): Promise<void> {
  const timing = { cron: row.cron, at: row.at, timezone: row.timezone };
  const tick = dueTick(timing, row.nextAt as number, now, row.missed);
  if (!tick) return;
  const rows = desk.rows();
  const record = { tick: tick.tick, nextAt: tick.nextAt, at: now };
  if (!tick.fire) {
    if (!rows.markTick(row.id, { ...record, outcome: 'skipped: missed', fired: false }))
      rows.advance(row.id, tick.nextAt);
    return;
  }
  // IDN-5: a schedule's turn counts against the owner's running turns like a message they post.
  const limited = (await desk.admitTurn?.()) ?? null;
  if (limited) {
    rows.markTick(row.id, { ...record, outcome: `refused: ${limited}`, fired: false });
    return;
  }
  let messageId: string | null = null;
  try {
    const posted = await acceptMessage(desk.answers(), {
      content: row.message,
      metadata: { schedule_id: row.id, tick: tick.tick },
      ...(row.onBusy ? { onBusy: row.onBusy as OnBusy } : {}),
      inTransaction: () => {
        if (!rows.markTick(row.id, { ...record, outcome: 'fired', fired: true })) throw new TickTaken();
      },
    });
    if (!posted.ok) {
      rows.markTick(row.id, { ...record, outcome: `refused: ${posted.error.code}`, fired: false });
      return;
    }
    messageId = posted.value.messageId;
  } catch (error) {
    if (error instanceof TickTaken) return rows.advance(row.id, tick.nextAt);
    // The tick is spent all the same: a failure that stays would otherwise wake the alarm again at once.
    rows.markTick(row.id, { ...record, outcome: 'failed: internal_error', fired: false });
    throw error;
  }
  const { tenant, owner } = desk.owner();
  publishEvent(desk.ctx, desk.env, {
    type: 'schedule.fired',
    tenant,
    owner,
    threadId: desk.store().info.id,
    data: { schedule_id: row.id, tick: tick.tick, message_id: messageId },
  });
}
