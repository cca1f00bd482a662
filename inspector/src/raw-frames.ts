/**
 * The thread's frames exactly as the stream delivered them, for debugging: a closed panel that,
 * once opened, lists the newest frames as JSON and keeps adding them. Only the last few hundred
 * are kept, so a long thread (every piece of streamed text is a frame) cannot fill the page.
 */
import { h, replace } from './dom.js';
import { json } from './format.js';
import type { Frame } from './types.js';

/** How many frames are kept and shown. */
const KEPT = 300;

export class RawFrames {
  readonly element: HTMLDetailsElement;
  private readonly frames: Frame[] = [];
  private readonly list = h('ol', { class: 'raw-frames', 'aria-label': 'Frames' });
  private readonly count = h('span', { class: 'muted' }, '(0)');

  constructor() {
    this.element = h(
      'details',
      { class: 'card raw-frames-panel' },
      h('summary', {}, h('h2', { class: 'inline' }, 'Raw frames'), ' ', this.count),
      h('p', { class: 'muted small' }, `The last ${KEPT} frames of the stream, oldest first.`),
      this.list,
    );
    // Rendered only while open: closed, a frame costs one array slot.
    this.element.addEventListener('toggle', () => {
      if (this.element.open) replace(this.list, this.frames.map(frameItem));
      else replace(this.list);
    });
  }

  add(frame: Frame): void {
    this.frames.push(frame);
    const dropped = this.frames.length > KEPT ? this.frames.splice(0, this.frames.length - KEPT) : [];
    this.count.textContent = `(${frame.seq})`;
    if (!this.element.open) return;
    for (const _ of dropped) this.list.firstElementChild?.remove();
    this.list.append(frameItem(frame));
  }
}

function frameItem(frame: Frame): HTMLLIElement {
  return h(
    'li',
    { 'data-seq': frame.seq, 'data-type': frame.type },
    h('pre', { class: 'json' }, `${frame.seq} ${frame.type}\n${json(frame)}`),
  );
}
