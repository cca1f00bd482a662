/**
 * The thread's automation RPCs: its effects (listed, cancelled), its stored spans, and its
 * schedules (made, listed, paused, deleted; fired from the alarm by ThreadObject). Their bodies are
 * thread/effects' and thread/schedules'; this class gives them the object's parts.
 */
import type { Principal } from '../access/index.js';
import { type EffectView, ok, type RpcResult, type ScheduleInput, type ScheduleView } from '../bindings/index.js';
import { cancelEffect, effectList } from '../effects/index.js';
import { createSchedule, deleteSchedule, listSchedules, pauseSchedule } from '../schedules/index.js';
import { ThreadBranching } from './thread-branching.js';

export abstract class ThreadAutomation extends ThreadBranching {
  /** The thread's effects: waiting, running, then the newest finished (the Effects chapter). */
  async listEffects(principal: Principal, id: string): Promise<RpcResult<{ effects: EffectView[] }>> {
    return this.asPrincipal(principal, id, 'read', () => ok(effectList(this.effectRows)));
  }

  /** The thread's stored spans, from which its timeline is drawn (TRACE-5). */
  async listSpans(principal: Principal, id: string, query: { traceId?: string; traces: number }) {
    return this.asPrincipal(principal, id, 'read', () => ok({ spans: this.spanRows.list(query) }));
  }

  /** Cancels a waiting effect: 404 for one this thread does not have, 409 once it runs or has run. */
  async cancelEffect(principal: Principal, id: string, effectId: string): Promise<RpcResult<EffectView>> {
    return this.asPrincipal(principal, id, 'write', () => cancelEffect(this.effectRows, effectId));
  }

  // Schedules (thread/schedules): made, listed, paused and deleted; fired from the alarm.
  async createSchedule(principal: Principal, id: string, input: ScheduleInput): Promise<RpcResult<ScheduleView>> {
    return this.asPrincipal(principal, id, 'write', () =>
      createSchedule(this.scheduleDesk(), principal.subject, input),
    );
  }

  async listSchedules(principal: Principal, id: string): Promise<RpcResult<{ schedules: ScheduleView[] }>> {
    return this.asPrincipal(principal, id, 'read', () => ok(listSchedules(this.scheduleDesk())));
  }

  async updateSchedule(principal: Principal, id: string, scheduleId: string, paused: boolean) {
    return this.asPrincipal(principal, id, 'write', () => pauseSchedule(this.scheduleDesk(), scheduleId, paused));
  }

  async deleteSchedule(principal: Principal, id: string, scheduleId: string): Promise<RpcResult<ScheduleView>> {
    return this.asPrincipal(principal, id, 'write', () => deleteSchedule(this.scheduleDesk(), scheduleId));
  }
}
