/**
 * A thread's scheduled effects: those waiting or running, then the newest finished, each with its
 * status, when it is (or was) due and why it failed; a waiting one can be cancelled. Refreshed with
 * the other panels, since any tool call or alarm may schedule or run one.
 */
import type { ThreadEffect } from '../../client/index.js';
import { type Api, describeError } from './api.js';
import { badge, h } from './dom.js';
import { dateTime, json } from './format.js';
import { ListCard } from './list-card.js';

/** The badge tone of each status: waiting and running are under way, the rest are over. */
const TONES: Record<ThreadEffect['status'], string> = {
  pending: 'waiting',
  running: 'running',
  completed: 'success',
  failed: 'error',
  cancelled: 'idle',
};

export class EffectsPanel {
  private readonly card: ListCard<ThreadEffect>;

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly showError: (text: string) => void,
  ) {
    this.card = new ListCard({
      id: 'effects-title',
      title: 'Effects',
      noun: 'effects',
      listLabel: 'Scheduled effects',
      empty: 'No effects scheduled.',
      className: 'effects',
      load: async () => (await api.client.effects.list(threadId)).effects,
      row: (effect) => this.row(effect),
    });
  }

  get element(): HTMLElement {
    return this.card.element;
  }

  refresh(): Promise<void> {
    return this.card.refresh();
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
