/**
 * Model text streamed at most one `message_delta` frame per interval per step (THR-9): a long answer
 * would otherwise cost a stored frame row and a WebSocket message per token. This is the thread's
 * frame sink, wrapped: every frame of the thread passes through it, so order is kept.
 *
 * A step's first delta goes out at once (the first words are not delayed). Later deltas of the
 * same message within the interval are joined into one held frame, sent when the interval has
 * passed (a timer) or as soon as any other frame of the thread is sent: the step's `message`, its
 * `message_abandoned`, a tool's frames, a status. No delta therefore ever follows its message, and
 * a frame is numbered and stored only when it is sent, so replay after `?after=` and live sockets
 * see the same frames once each, in order.
 *
 * Joining deltas never shows part of a secret: each delta already stops before any tail that could
 * begin one (text-delta-frames.ts), so a joined frame ends where its last delta did, and the thread
 * scrubs it whole as it stores it. Text held when the object stops is lost with the step it belongs
 * to, which the restarted thread abandons (streamed-text.ts).
 */
import type { Frame, FrameSink } from '../ports/index.js';

/** The clock and timer the coalescing uses; tests pass a fake one. */
export interface FlushClock {
  now(): number;
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const SYSTEM_CLOCK: FlushClock = {
  now: () => Date.now(),
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

type DeltaFrame = Extract<Frame, { type: 'message_delta' }>;

export class CoalescedTextFrames {
  /** The joined deltas not sent yet (of one message only). */
  private held: DeltaFrame | null = null;
  private timer: unknown = null;
  /** The message whose delta went out last, and when. */
  private sent: { messageId: string; at: number } | null = null;

  /** `intervalMs` is `limits.deltaFlushMs` (default 50); 0 sends every delta as it comes. */
  constructor(
    private readonly send: FrameSink,
    private readonly intervalMs: number,
    private readonly clock: FlushClock = SYSTEM_CLOCK,
  ) {}

  /** The thread's frame sink: deltas are coalesced, any other frame first sends what is held. */
  readonly emit = (frame: Frame): void => {
    if (frame.type !== 'message_delta' || this.intervalMs === 0) {
      this.flush();
      this.send(frame);
      return;
    }
    if (this.held && this.held.message_id !== frame.message_id) this.flush();
    if (this.held) {
      this.held = { ...this.held, delta: this.held.delta + frame.delta };
      return;
    }
    const now = this.clock.now();
    const since = this.sent?.messageId === frame.message_id ? now - this.sent.at : Number.POSITIVE_INFINITY;
    if (since >= this.intervalMs) {
      this.sendDelta(frame, now);
      return;
    }
    this.held = { ...frame };
    this.timer = this.clock.set(() => {
      this.timer = null;
      this.flush();
    }, this.intervalMs - since);
  };

  /** Sends the held text now (the step ended, or another frame is about to go out). */
  flush(): void {
    this.stopTimer();
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.sendDelta(held, this.clock.now());
  }

  /** Forgets the held text without sending it: the thread it belonged to is being erased. */
  drop(): void {
    this.stopTimer();
    this.held = null;
    this.sent = null;
  }

  private sendDelta(frame: DeltaFrame, now: number): void {
    this.sent = { messageId: frame.message_id, at: now };
    this.send(frame);
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    this.clock.clear(this.timer);
    this.timer = null;
  }
}
