/**
 * Auto-follow for the thread's log, as in a chat: while the end of the log is in view, whatever is
 * added to it (a message, streamed text, a tool call's result) scrolls the page so the end stays
 * just above the composer. Scrolling up pauses this and shows a "Jump to latest" button, which
 * scrolls back and resumes; reaching the end again by hand resumes too.
 */
import { h } from './dom.js';

/** How far below the composer's top the log's end may be and still count as in view (px). */
const SLACK = 48;
/** The space left between the log's end and the composer after following (px). */
const GAP = 12;

export class Follow {
  readonly jump = h('button', { type: 'button', class: 'jump-latest', hidden: true }, 'Jump to latest ↓');
  private following = true;
  private lastY = window.scrollY;
  private readonly observer = new MutationObserver(() => this.grew());
  /** The dock grows too (a wait's form appears above the composer): the log's end must stay above it. */
  private readonly dockSize = new ResizeObserver(() => {
    if (this.following) this.toLatest();
  });
  private readonly onScroll = () => this.scrolled();

  /** `log` is what grows; `dock` is the sticky part at the bottom it must stay above. */
  constructor(
    private readonly log: HTMLElement,
    private readonly dock: HTMLElement,
  ) {
    this.jump.addEventListener('click', () => {
      this.following = true;
      this.toLatest();
    });
    this.observer.observe(log, { childList: true, subtree: true, characterData: true });
    this.dockSize.observe(dock);
    window.addEventListener('scroll', this.onScroll, { passive: true });
  }

  dispose(): void {
    this.observer.disconnect();
    this.dockSize.disconnect();
    window.removeEventListener('scroll', this.onScroll);
  }

  /** How far the log's end lies below the top of the dock (negative: above it, in view). */
  private distance(): number {
    return this.log.getBoundingClientRect().bottom - this.dock.getBoundingClientRect().top;
  }

  private grew(): void {
    if (this.following) this.toLatest();
    else this.jump.hidden = false;
  }

  private toLatest(): void {
    const distance = this.distance();
    if (distance > -GAP) window.scrollBy({ top: distance + GAP, behavior: 'instant' });
    this.jump.hidden = true;
    this.lastY = window.scrollY;
  }

  /**
   * Content growing never moves the page and following only scrolls down, so a scroll that went up
   * while the end is out of view is the user's: it pauses following.
   */
  private scrolled(): void {
    const y = window.scrollY;
    if (this.distance() <= SLACK) {
      this.following = true;
      this.jump.hidden = true;
    } else if (y < this.lastY) {
      this.following = false;
      this.jump.hidden = false;
    }
    this.lastY = y;
  }
}
