/**
 * Model text as `message_delta` frames (THR-2) that never show part of a secret (EXE-8). The thread
 * scrubs each frame whole as it stores it, so a secret the model streams across two deltas would
 * pass as two harmless halves. Each frame therefore carries what arrived up to any tail that could
 * begin a secret; that tail goes out with the next delta (the whole secret then scrubbed in one
 * frame) or when the text ends. Only the text not yet sent is examined, so a long answer costs
 * nothing more per delta.
 */
import type { FrameSink } from '../ports/index.js';

export class TextDeltaFrames {
  /** Text that arrived and is not in a frame yet. */
  private held = '';

  constructor(
    private readonly emit: FrameSink,
    private readonly messageId: string,
    private readonly withoutSecretStart: (text: string) => string = (text) => text,
  ) {}

  add(delta: string): void {
    this.held += delta;
    const shown = this.withoutSecretStart(this.held);
    if (shown === '') return;
    this.held = this.held.slice(shown.length);
    this.emit({ type: 'message_delta', message_id: this.messageId, delta: shown });
  }

  /** The text has ended: what was held back was not a secret after all. */
  flush(): void {
    if (this.held === '') return;
    const rest = this.held;
    this.held = '';
    this.emit({ type: 'message_delta', message_id: this.messageId, delta: rest });
  }
}
