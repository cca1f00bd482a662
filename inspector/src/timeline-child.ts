/**
 * A child thread's part of a turn, opened in place beneath the call that started or messaged it: the
 * child's own spans of the same trace (its turn, steps and calls), read from the child thread when
 * first opened, drawn against the parent turn's window, with a link to the child's own view. Its
 * spans link to nothing in this log: their messages are the child's.
 */
import { describeError } from './api.js';
import { h, replace, uid } from './dom.js';
import { shortId } from './format.js';
import { type Span, type SpanNode, spanTree } from './timeline-spans.js';

/** Where the child's spans come from, and how the waterfall draws them beneath the call. */
export interface ChildSpansSource {
  traceId: string;
  childSpans(childId: string, traceId: string): Promise<Span[]>;
  draw(roots: SpanNode[]): HTMLElement;
}

export class ChildThreadSpans {
  readonly toggle: HTMLButtonElement;
  readonly element: HTMLElement;
  private loaded = false;

  constructor(
    private readonly childId: string,
    private readonly source: ChildSpansSource,
  ) {
    this.element = h('div', { class: 'span-child', hidden: true, 'aria-label': `Spans of child thread ${childId}` });
    this.element.id = uid('child-spans');
    this.toggle = h(
      'button',
      {
        type: 'button',
        class: 'small span-expand',
        'aria-expanded': 'false',
        'aria-controls': this.element.id,
        title: `Child thread ${childId}`,
      },
      `child ${shortId(childId)}`,
    );
    this.toggle.addEventListener('click', () => void this.flip());
  }

  private async flip(): Promise<void> {
    const open = this.element.hidden;
    this.element.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open && !this.loaded) await this.load();
  }

  private async load(): Promise<void> {
    this.loaded = true;
    replace(this.element, h('p', { class: 'muted small' }, 'Reading the child thread’s spans…'));
    const link = h(
      'a',
      { href: `#/threads/${this.childId}`, class: 'small' },
      `Open child thread ${shortId(this.childId)}`,
    );
    try {
      const spans = await this.source.childSpans(this.childId, this.source.traceId);
      const body =
        spans.length === 0
          ? h('p', { class: 'muted small' }, 'The child thread recorded no spans of this turn.')
          : this.source.draw(spanTree(spans));
      replace(this.element, h('p', { class: 'span-child-head' }, link), body);
    } catch (error) {
      // Asked again on the next opening.
      this.loaded = false;
      replace(
        this.element,
        h('p', { class: 'form-error' }, `Could not read the child thread’s spans: ${describeError(error)}`),
        link,
      );
    }
  }
}
