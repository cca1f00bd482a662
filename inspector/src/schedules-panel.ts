/**
 * A thread's schedules: each with its cron expression (and zone) or one-off time, its next tick and
 * what its last tick did; each can be paused, resumed or deleted. Refreshed with the other panels,
 * since the alarm fires them and moves their next tick.
 */
import type { Schedule } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { dateTime } from './format.js';

/** What the schedule fires on, in words a person reads at a glance. */
function timing(schedule: Schedule): string {
  if (schedule.cron !== null) return `cron ${schedule.cron} (${schedule.timezone})`;
  return `once at ${dateTime(schedule.at ?? 0)}`;
}

export class SchedulesPanel {
  readonly element: HTMLElement;
  private readonly list = h('div', { class: 'schedules' });

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly showError: (text: string) => void,
  ) {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'schedules-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'schedules-title' }, 'Schedules'),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, 'Refresh schedules'),
      ),
      this.list,
    );
  }

  async refresh(): Promise<void> {
    try {
      const { schedules } = await this.api.client.schedules.list(this.threadId);
      if (schedules.length === 0) return replace(this.list, h('p', { class: 'muted' }, 'No schedules.'));
      replace(
        this.list,
        h(
          'ul',
          { class: 'files', 'aria-label': 'Schedules' },
          schedules.map((schedule) => this.row(schedule)),
        ),
      );
    } catch (error) {
      replace(this.list, h('p', { class: 'form-error' }, `Could not list the schedules: ${describeError(error)}`));
    }
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
