/**
 * A thread's schedules: each with its cron expression (and zone) or one-off time, its next tick and
 * what its last tick did; each can be paused, resumed or deleted. Refreshed with the other panels,
 * since the alarm fires them and moves their next tick.
 */
import type { Schedule } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h } from './dom.js';
import { dateTime } from './format.js';
import { ListCard } from './list-card.js';

/** What the schedule fires on, in words a person reads at a glance. */
function timing(schedule: Schedule): string {
  if (schedule.cron !== null) return `cron ${schedule.cron} (${schedule.timezone})`;
  return `once at ${dateTime(schedule.at ?? 0)}`;
}

export class SchedulesPanel {
  private readonly card: ListCard<Schedule>;

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly showError: (text: string) => void,
  ) {
    this.card = new ListCard({
      id: 'schedules-title',
      title: 'Schedules',
      noun: 'schedules',
      listLabel: 'Schedules',
      empty: 'No schedules.',
      className: 'schedules',
      load: async () => (await api.client.schedules.list(threadId)).schedules,
      row: (schedule) => this.row(schedule),
    });
  }

  get element(): HTMLElement {
    return this.card.element;
  }

  refresh(): Promise<void> {
    return this.card.refresh();
  }

  private row(schedule: Schedule): HTMLLIElement {
    const label = schedule.name ?? schedule.message.slice(0, 40);
    const next = schedule.paused ? 'paused' : schedule.next_at === null ? 'done' : `next ${dateTime(schedule.next_at)}`;
    return h(
      'li',
      { class: 'schedule', 'data-schedule-id': schedule.id },
      h('strong', {}, label),
      ' ',
      badge(
        schedule.paused ? 'paused' : schedule.next_at === null ? 'done' : 'active',
        schedule.paused ? 'idle' : 'waiting',
      ),
      schedule.source === 'agent' ? h('span', { class: 'muted' }, ' from the agent') : null,
      h('p', { class: 'muted' }, `${timing(schedule)} · ${next} · fired ${schedule.fired_count}×`),
      schedule.last_outcome
        ? h('p', { class: 'muted' }, `last tick ${dateTime(schedule.last_tick ?? 0)}: ${schedule.last_outcome}`)
        : null,
      h('details', {}, h('summary', {}, 'Message'), h('pre', {}, schedule.message)),
      h(
        'button',
        { type: 'button', class: 'small', onclick: () => void this.setPaused(schedule, !schedule.paused) },
        `${schedule.paused ? 'Resume' : 'Pause'} ${label}`,
      ),
      ' ',
      h(
        'button',
        { type: 'button', class: 'small', onclick: () => void this.remove(schedule, label) },
        `Delete ${label}`,
      ),
    );
  }

  private async setPaused(schedule: Schedule, paused: boolean): Promise<void> {
    try {
      await this.api.client.schedules.setPaused(this.threadId, schedule.id, paused);
    } catch (error) {
      this.showError(`Could not ${paused ? 'pause' : 'resume'} the schedule: ${describeError(error)}`);
    }
    await this.refresh();
  }

  private async remove(schedule: Schedule, label: string): Promise<void> {
    try {
      await this.api.client.schedules.delete(this.threadId, schedule.id);
    } catch (error) {
      this.showError(`Could not delete ${label}: ${describeError(error)}`);
    }
    await this.refresh();
  }
}
