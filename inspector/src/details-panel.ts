/**
 * The thread's Details card: id, creation time, what it was forked from, message and frame counts,
 * whether it is headless, and its last error. The frame count follows the live stream between two reads of the thread.
 */
import { h, replace } from './dom.js';
import { forkOriginText } from './fork-tree.js';
import { count, dateTime } from './format.js';
import type { ThreadDetails } from './types.js';

export class DetailsPanel {
  readonly element: HTMLElement;
  private readonly list = h('dl', { class: 'details' });
  private readonly frames = h('dd', {});
  /** The newest frame seen, from the thread's state or the stream. */
  private lastSeq = 0;

  constructor() {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'details-title' },
      h('h2', { id: 'details-title' }, 'Details'),
      this.list,
    );
  }

  /** A frame arrived: its `seq` is the newest. */
  frameSeen(seq: number): void {
    this.lastSeq = seq;
    this.frames.textContent = count(seq);
  }

  show(details: ThreadDetails): void {
    this.frameSeen(Math.max(this.lastSeq, details.last_frame_seq));
    replace(
      this.list,
      h('dt', {}, 'Id'),
      h('dd', {}, h('code', {}, details.id)),
      h('dt', {}, 'Created'),
      h('dd', {}, dateTime(details.created_at)),
      forkOriginText(details) ? [h('dt', {}, 'Origin'), h('dd', {}, forkOriginText(details))] : null,
      h('dt', {}, 'Messages'),
      h('dd', {}, count(details.message_count)),
      h('dt', {}, 'Frames'),
      this.frames,
      details.headless ? [h('dt', {}, 'Headless'), h('dd', {}, 'yes: questions and asks fail at once')] : null,
      details.last_error ? [h('dt', {}, 'Last error'), h('dd', { class: 'error-text' }, details.last_error)] : null,
    );
  }
}
