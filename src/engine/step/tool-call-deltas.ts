/**
 * A tool call's arguments shown while the model streams them (ARGS-1): each delta a provider hears
 * becomes a `tool_call_delta` frame carrying the call's whole argument text so far, at most one per
 * call every 50 ms so a long argument (a file being written, a program) does not flood the stream.
 *
 * Whole-so-far rather than the new piece: a frame held back by the coalescing, or missed across a
 * reconnect, loses nothing, because the next one repeats it. No timer runs: a held delta goes out
 * with the call's next delta once the interval has passed, or when the model's answer ends
 * (`flush`), so the last frame of each call always carries its complete arguments. The clock is the
 * turn's (`TurnDeps.now`), which tests replace.
 *
 * A call's first delta waits its interval too, counted from when the call began: a call the model
 * writes within 50 ms (most are short) is shown once, complete, as the answer ends, in the same
 * write as the message that holds it, rather than costing the thread a storage write of its own
 * while the answer still streams.
 *
 * Every frame is scrubbed whole when the thread stores it, which replaces whole secrets only; a
 * secret the model is in the middle of writing would show its first characters. So a frame sent
 * while the call still streams stops before any tail that could begin a secret (`withoutSecretStart`);
 * the last frame, complete, is scrubbed like the stored message.
 */
import type { FrameSink, ToolCallDelta } from '../ports/index.js';

/** The least time between two frames of one call. */
export const TOOL_CALL_DELTA_INTERVAL_MS = 50;

export class ToolCallDeltaFrames {
  /** When each call's last frame went out, or, before its first, when its first delta came. */
  private readonly sentAt = new Map<string, number>();
  /** Each call's newest delta not yet sent. */
  private readonly held = new Map<string, ToolCallDelta>();

  constructor(
    private readonly emit: FrameSink,
    private readonly now: () => number,
    private readonly withoutSecretStart: (text: string) => string = (text) => text,
    private readonly intervalMs = TOOL_CALL_DELTA_INTERVAL_MS,
  ) {}

  /** A call's arguments grew: sent now if its last frame is old enough, else held until then. */
  add(delta: ToolCallDelta): void {
    const now = this.now();
    const last = this.sentAt.get(delta.id);
    if (last === undefined) this.sentAt.set(delta.id, now);
    if (last === undefined || now - last < this.intervalMs) {
      this.held.set(delta.id, delta);
      return;
    }
    this.held.delete(delta.id);
    this.send({ ...delta, argumentsText: this.withoutSecretStart(delta.argumentsText) }, now);
  }

  /** The answer ended: every held delta goes out, so each call's last frame is its whole text. */
  flush(): void {
    const now = this.now();
    for (const delta of this.held.values()) this.send(delta, now);
    this.held.clear();
  }

  private send(delta: ToolCallDelta, now: number): void {
    this.sentAt.set(delta.id, now);
    this.emit({
      type: 'tool_call_delta',
      tool_call_id: delta.id,
      name: delta.name,
      arguments_text: delta.argumentsText,
    });
  }
}
