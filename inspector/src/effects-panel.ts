/**
 * A thread's scheduled effects: those waiting or running, then the newest finished, each with its
 * status, when it is (or was) due and why it failed; a waiting one can be cancelled. Refreshed with
 * the other panels, since any tool call or alarm may schedule or run one.
 */
import type { ThreadEffect } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { dateTime, json } from './format.js';

/** The badge tone of each status: waiting and running are under way, the rest are over. */
const TONES: Record<ThreadEffect['status'], string> = {
  pending: 'waiting',
  running: 'running',
  completed: 'success',
  failed: 'error',
  cancelled: 'idle',
};

export class EffectsPanel {
  readonly element: HTMLElement;
  private readonly list = h('div', { class: 'effects' });

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly showError: (text: string) => void,
  ) {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'effects-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'effects-title' }, 'Effects'),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, 'Refresh effects'),
      ),
      this.list,
    );
  }

  async refresh(): Promise<void> {
    try {
      const { effects } = await this.api.client.effects.list(this.threadId);
      if (effects.length === 0) return replace(this.list, h('p', { class: 'muted' }, 'No effects scheduled.'));
      replace(
        this.list,
        h(
          'ul',
          { class: 'files', 'aria-label': 'Scheduled effects' },
          effects.map((effect) => this.row(effect)),
        ),
      );
    } catch (error) {
      replace(this.list, h('p', { class: 'form-error' }, `Could not list the effects: ${describeError(error)}`));
    }
  }

  private row(effect: ThreadEffect): HTMLLIElement {
    const when =
      effect.status === 'pending'
        ? `due ${dateTime(effect.scheduled_at)}`
        : dateTime(effect.finished_at ?? effect.scheduled_at);
    return h(
      'li',
      { class: 'effect', 'data-effect-id': effect.id },
      h('strong', {}, effect.name),
      ' ',
      badge(effect.status, TONES[effect.status]),
      h('span', { class: 'muted' }, ` ${when}`),
      h('details', {}, h('summary', {}, 'Arguments'), h('pre', {}, json(effect.args))),
      effect.error ? h('p', { class: 'form-error' }, effect.error) : null,
      effect.status === 'pending'
        ? h(
            'button',
            { type: 'button', class: 'small', onclick: () => void this.cancel(effect) },
            `Cancel ${effect.name}`,
          )
        : null,
    );
  }

  private async cancel(effect: ThreadEffect): Promise<void> {
    try {
      await this.api.client.effects.cancel(this.threadId, effect.id);
    } catch (error) {
      this.showError(`Could not cancel ${effect.name}: ${describeError(error)}`);
    }
    await this.refresh();
  }
}
