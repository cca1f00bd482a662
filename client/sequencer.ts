/**
 * Exactly once, in order: the thread numbers its frames 1, 2, 3 ... without gaps, so the position
 * of the last frame delivered is all a client needs. A frame at or below it was delivered already
 * (a replay overlapping what arrived before a drop) and is dropped; the next number is delivered;
 * anything beyond it means frames were skipped, and the connection must resume from the position.
 */

export type Verdict = 'deliver' | 'duplicate' | 'gap';

export class FrameSequencer {
  constructor(private last = 0) {
    if (!Number.isSafeInteger(last) || last < 0) throw new RangeError(`after must be a frame number ≥ 0, not ${last}`);
  }

  /** The seq of the last frame delivered (the `after` to resume from). */
  get lastSeq(): number {
    return this.last;
  }

  /** What to do with a frame numbered `seq`; a delivered one moves the position. */
  accept(seq: number): Verdict {
    if (seq <= this.last) return 'duplicate';
    if (seq !== this.last + 1) return 'gap';
    this.last = seq;
    return 'deliver';
  }
}
