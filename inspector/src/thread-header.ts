/**
 * The thread screen's header: the thread's id, agent, status, tags, parent, the thread and message it
 * was forked from, and the state of the live connection, and the Stop button, enabled only while a
 * turn can be stopped.
 */
import { type Api, describeError } from './api.js';
import { badge, h, replace } from './dom.js';
import { forkOriginText } from './fork-tree.js';
import { shortId } from './format.js';
import { threadLink } from './thread-list.js';
import type { ThreadDetails, ThreadStatus } from './types.js';

/** Statuses in which a turn can be stopped. */
const STOPPABLE: ThreadStatus[] = ['running', 'waiting', 'awaiting_hitl'];

export class ThreadHeader {
  readonly element: HTMLElement;
  private readonly status = h('span', { role: 'status', 'aria-label': 'Thread status', class: 'thread-status' });
  private readonly connection = h('span', { class: 'connection muted', 'aria-live': 'polite' }, 'connecting…');
  private readonly agent = h('span', { class: 'agent' });
  private readonly tags = h('span', { class: 'tags' });
  private readonly parent = h('span', { class: 'parent' });
  private readonly origin = h('span', {});
  private readonly stop = h('button', { type: 'button', class: 'danger', disabled: true }, 'Stop');

  constructor(api: Api, id: string, showError: (text: string) => void) {
    this.stop.addEventListener('click', async () => {
      this.stop.disabled = true;
      try {
        await api.client.threads.stop(id);
      } catch (error) {
        showError(`Could not stop the turn: ${describeError(error)}`);
      }
    });
    const { agent, status, tags, parent, origin, connection } = this;
    this.element = h(
      'header',
      { class: 'thread-head' },
      h(
        'div',
        {},
        h('h1', {}, 'Thread ', h('code', { title: id }, shortId(id))),
        h('p', { class: 'meta' }, agent, ' ', status, ' ', tags, ' ', parent, ' ', origin, ' ', connection),
      ),
      h('div', { class: 'actions' }, this.stop),
    );
  }

  setStatus(value: ThreadStatus, reason?: string): void {
    const shown = badge(value);
    if (reason) shown.title = reason;
    replace(this.status, shown);
    this.stop.disabled = !STOPPABLE.includes(value);
  }

  /** The live connection's state, as the stream reports it (`open` is shown as `live`). */
  setConnection(state: string): void {
    this.connection.textContent = state === 'open' ? 'live' : state;
    this.connection.dataset.state = state;
  }

  show(details: ThreadDetails): void {
    this.setStatus(details.status);
    this.agent.textContent = details.agent;
    replace(
      this.tags,
      details.tags.map((tag) => h('span', { class: 'tag' }, tag)),
    );
    replace(
      this.parent,
      details.parent_id
        ? ['child of ', threadLink(details.parent_id, `parent thread ${shortId(details.parent_id)}`)]
        : null,
    );
    replace(this.origin, forkOriginText(details));
  }
}
