/**
 * The Schedules page (`#/schedules`): the schedules that start threads (`/api/schedules`) this key
 * made (an admin: the tenant's), each with its agent, its cron expression (and zone) or one-off time,
 * its next tick, what its last tick did and a link to the thread it started; each can be paused,
 * resumed or deleted. A thread's own schedules are in its thread view.
 */
import type { TenantSchedule } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { dateTime } from './format.js';
import type { Screen } from './thread-view.js';

function timing(schedule: TenantSchedule): string {
  if (schedule.cron !== null) return `cron ${schedule.cron} (${schedule.timezone})`;
  return `once at ${dateTime(schedule.at ?? 0)}`;
}

function card(schedule: TenantSchedule, act: (paused: boolean | 'delete') => void): HTMLElement {
  const label = schedule.name ?? schedule.message.slice(0, 40);
  const state = schedule.paused ? 'paused' : schedule.next_at === null ? 'done' : 'active';
  return h(
    'section',
    { class: 'card schedule', 'data-schedule-id': schedule.id, 'aria-label': `Schedule ${label}` },
    h('div', { class: 'section-head' }, h('h2', {}, label), badge(state, schedule.paused ? 'idle' : 'waiting')),
    h(
      'p',
      { class: 'muted' },
      `starts a thread of ${schedule.agent} · ${timing(schedule)}`,
      schedule.next_at === null || schedule.paused ? '' : ` · next ${dateTime(schedule.next_at)}`,
      ` · fired ${schedule.fired_count}×`,
    ),
    schedule.last_outcome
      ? h('p', { class: 'muted' }, `last tick ${dateTime(schedule.last_tick ?? 0)}: ${schedule.last_outcome}`)
      : null,
    schedule.last_thread_id
      ? h('p', {}, h('a', { href: `#/threads/${schedule.last_thread_id}` }, 'The thread it last started'))
      : null,
    h('details', {}, h('summary', {}, 'Message'), h('pre', {}, schedule.message)),
    h(
      'button',
      { type: 'button', class: 'small', onclick: () => act(!schedule.paused) },
      `${schedule.paused ? 'Resume' : 'Pause'} ${label}`,
    ),
    ' ',
    h('button', { type: 'button', class: 'small', onclick: () => act('delete') }, `Delete ${label}`),
  );
}

export function schedulesScreen(api: Api): Screen {
  const list = h('div', { class: 'schedule-list' });
  const status = h('p', { role: 'status', class: 'muted' });
  const act = async (schedule: TenantSchedule, change: boolean | 'delete') => {
    try {
      if (change === 'delete') await api.client.tenantSchedules.delete(schedule.id);
      else await api.client.tenantSchedules.setPaused(schedule.id, change);
    } catch (error) {
      status.textContent = `Could not change the schedule: ${describeError(error)}`;
    }
    await load();
  };
  const load = async () => {
    try {
      const { schedules } = await api.client.tenantSchedules.list();
      replace(list, ...schedules.map((schedule) => card(schedule, (change) => void act(schedule, change))));
      status.textContent = schedules.length === 0 ? 'No schedules: make one with POST /api/schedules.' : '';
    } catch (error) {
      status.textContent = `Could not list the schedules: ${describeError(error)}`;
    }
  };
  void load();
  const element = h(
    'div',
    { class: 'schedules-screen' },
    h(
      'div',
      { class: 'section-head' },
      h('h1', {}, 'Schedules'),
      h('button', { type: 'button', onclick: () => void load() }, 'Refresh'),
    ),
    status,
    list,
  );
  return { element, dispose: () => undefined };
}
