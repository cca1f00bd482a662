/**
 * Where a thread came from and what came of it: "forked from <thread> at <message>" for a fork (the
 * message link opens the source thread scrolled to that message), and the Forks card, the threads
 * forked from this one (`GET /api/threads?forked_from=`), each opening its thread and opening in
 * place onto its own forks, read when first opened.
 */
import { type Api, describeError } from './api.js';
import { badge, type Child, h, replace } from './dom.js';
import { dateTime, shortId } from './format.js';
import type { ThreadDetails, ThreadSummary } from './types.js';

/** The hash that opens thread `threadId` at message `messageId`. */
export function messageHash(threadId: string, messageId: string): string {
  return `#/threads/${encodeURIComponent(threadId)}?at=${encodeURIComponent(messageId)}`;
}

/** "forked from <thread> at <message>", both links; nothing for a thread that is not a fork. */
export function forkOriginText(details: ThreadDetails): Child {
  const origin = details.forked_from;
  if (!origin) return null;
  return h(
    'span',
    { class: 'fork-origin' },
    'forked from ',
    h(
      'a',
      { href: `#/threads/${encodeURIComponent(origin.thread_id)}`, title: origin.thread_id },
      `thread ${shortId(origin.thread_id)}`,
    ),
    origin.message_id === null
      ? ' before its first message'
      : [
          ' at ',
          h(
            'a',
            { href: messageHash(origin.thread_id, origin.message_id), title: origin.message_id },
            `message ${shortId(origin.message_id)}`,
          ),
        ],
  );
}

/** The most forks of one thread listed (the API's page maximum). */
const MAX_FORKS = 200;

export class ForkTree {
  readonly element: HTMLElement;
  private readonly body = h('div', {});

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
  ) {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'forks-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'forks-title' }, 'Forks'),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, 'Refresh forks'),
      ),
      this.body,
    );
  }

  async refresh(): Promise<void> {
    replace(this.body, await this.level(this.threadId, 'Fork tree'));
  }

  /** The forks of one thread, as a list; a short note when there are none or they cannot be read. */
  private async level(of: string, label: string): Promise<HTMLElement> {
    try {
      const { threads: forks } = await this.api.client.threads.list({ forked_from: of, limit: MAX_FORKS });
      if (forks.length === 0) return h('p', { class: 'muted small' }, 'No forks.');
      return h(
        'ul',
        { class: 'fork-tree', 'aria-label': label },
        forks.map((fork) => this.item(fork)),
      );
    } catch (error) {
      return h('p', { class: 'form-error' }, `Could not list the forks: ${describeError(error)}`);
    }
  }

  private item(fork: ThreadSummary): HTMLLIElement {
    const below = h('div', { class: 'fork-children', hidden: true });
    const toggle = h(
      'button',
      { type: 'button', class: 'small link', 'aria-expanded': 'false', 'aria-label': `Forks of ${shortId(fork.id)}` },
      'Its forks',
    );
    toggle.addEventListener('click', async () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      below.hidden = !open;
      if (open && below.childElementCount === 0) replace(below, await this.level(fork.id, `Forks of ${fork.id}`));
    });
    return h(
      'li',
      { 'data-thread-id': fork.id },
      h(
        'a',
        { href: `#/threads/${encodeURIComponent(fork.id)}`, title: fork.id },
        `${fork.agent} (${shortId(fork.id)})`,
      ),
      ' ',
      badge(fork.status),
      h('span', { class: 'muted small' }, ` ${dateTime(fork.created_at)} `),
      toggle,
      below,
    );
  }
}
