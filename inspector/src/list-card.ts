/**
 * A card of the thread screen that lists what the API says a thread has (its effects, its
 * schedules): a heading with its Refresh button, then the rows, a line saying there are none, or
 * why the list could not be read. The panels built on it say only how one row looks.
 */
import { describeError } from './api.js';
import { h, replace } from './dom.js';

export interface ListCardOptions<T> {
  /** The heading's id, which the card is labelled by. */
  id: string;
  title: string;
  /** What the rows are, in words: "effects", "schedules". */
  noun: string;
  /** The list's accessible name. */
  listLabel: string;
  /** The line shown when there is nothing to list. */
  empty: string;
  /** The class of the element holding the list. */
  className: string;
  load(): Promise<T[]>;
  row(item: T): HTMLLIElement;
}

export class ListCard<T> {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;

  constructor(private readonly options: ListCardOptions<T>) {
    this.list = h('div', { class: options.className });
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': options.id },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: options.id }, options.title),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, `Refresh ${options.noun}`),
      ),
      this.list,
    );
  }

  async refresh(): Promise<void> {
    const options = this.options;
    try {
      const items = await options.load();
      if (items.length === 0) return replace(this.list, h('p', { class: 'muted' }, options.empty));
      replace(
        this.list,
        h(
          'ul',
          { class: 'files', 'aria-label': options.listLabel },
          items.map((item) => options.row(item)),
        ),
      );
    } catch (error) {
      replace(
        this.list,
        h('p', { class: 'form-error' }, `Could not list the ${options.noun}: ${describeError(error)}`),
      );
    }
  }
}
