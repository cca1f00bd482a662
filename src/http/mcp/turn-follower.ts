/**
 * Following one turn of a thread through its frame stream (THR-2), as any client does: the frames
 * after `after` come from a FrameFeed (the thread's WebSocket, opened through the stub with
 * `?after=` replay and reopened after the last frame seen when the thread closes it). No timer polls
 * anything: the turn is over when a `status` frame after the caller's message says so.
 *
 * - The caller's message is recognised by its `message` frame. Until it is in the log, the thread
 *   may still be busy with an earlier turn, whose end says nothing about this one.
 * - A thread that parks on a wait a human must answer ends the follow; one waiting only for its
 *   child threads resumes by itself (SUB-7), so the follow goes on.
 * - A stream the feed gives up on (closed repeatedly without a new frame) ends the follow, saying so.
 * - After `deadlineMs` the follow stops, saying the turn still runs.
 */

import type { NumberedFrame } from '../../engine/ports/index.js';
import type { Message, ThreadStatus } from '../../spec/index.js';
import { HUMAN_INTERACTIONS } from '../../spec/internal.js';
import type { Principal } from '../../thread/access/index.js';
import type { RuntimeEnv } from '../../thread/bindings/index.js';
import { FrameFeed } from '../frames/index.js';

export type TurnEnd =
  | {
      kind: 'ended';
      status: Exclude<ThreadStatus, 'running'>;
      reason?: string;
      /** The turn's `error` frame, when it failed or hit a limit. */
      error?: { code: string; message: string };
      /** The last text the agent answered in the turn (its top-level assistant messages). */
      answer: string;
      /** False when the thread parked before the caller's message left its queue. */
      delivered: boolean;
    }
  | { kind: 'still_running'; why: 'deadline' | 'stream_lost'; answer: string }
  | { kind: 'gone' };

export interface FollowTurnOptions {
  env: RuntimeEnv;
  principal: Principal;
  threadId: string;
  /** The thread's last frame before the caller's message: frames up to it are history. */
  after: number;
  /** Which `message` frame is the caller's message. */
  isOurs(message: Message): boolean;
  /** Every frame of the turn after the caller's message, in order (progress reporting). */
  onFrame(frame: NumberedFrame): void;
  deadlineMs: number;
}

export function followTurn(options: FollowTurnOptions): Promise<TurnEnd> {
  return new TurnWatch(options).run();
}

class TurnWatch {
  private delivered = false;
  private answer = '';
  private error: { code: string; message: string } | undefined;
  /** Waits a human must answer, opened and not yet answered, by tool call id. */
  private readonly humanWaits = new Set<string>();
  private readonly feed: FrameFeed;
  private done = false;
  private settle: (end: TurnEnd) => void = () => {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: FollowTurnOptions) {
    const { env, principal, threadId, after } = options;
    this.feed = new FrameFeed({
      env,
      principal,
      threadId,
      after,
      onFrame: (frame) => this.handle(frame),
      onEnd: (end) =>
        this.finish(
          end === 'gone' ? { kind: 'gone' } : { kind: 'still_running', why: 'stream_lost', answer: this.answer },
        ),
    });
  }

  run(): Promise<TurnEnd> {
    return new Promise<TurnEnd>((resolve) => {
      this.settle = resolve;
      this.timer = setTimeout(
        () => this.finish({ kind: 'still_running', why: 'deadline', answer: this.answer }),
        this.options.deadlineMs,
      );
      void this.feed.start();
    });
  }

  private finish(end: TurnEnd): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.feed.close();
    this.settle(end);
  }

  private handle(frame: NumberedFrame): void {
    if (this.done) return;
    if (frame.type === 'waiting' && HUMAN_INTERACTIONS.includes(frame.kind)) this.humanWaits.add(frame.tool_call_id);
    if (frame.type === 'answered') this.humanWaits.delete(frame.tool_call_id);
    if (!this.delivered) {
      if (frame.type === 'message' && this.options.isOurs(frame.message)) this.delivered = true;
      // A thread parked on a human's answer keeps the message queued until that answer comes.
      else if (frame.type === 'status' && this.parked(frame.status)) this.end(frame.status, frame.reason);
      return;
    }
    this.options.onFrame(frame);
    if (frame.type === 'message' && isAnswer(frame.message)) this.answer = frame.message.content ?? '';
    if (frame.type === 'error') this.error = { code: frame.code, message: frame.message };
    if (frame.type !== 'status' || frame.status === 'running') return;
    // A wait only for child threads is answered by them: the turn resumes by itself.
    if (frame.status === 'waiting' && !this.parked(frame.status)) return;
    this.end(frame.status, frame.reason);
  }

  private parked(status: ThreadStatus): status is 'waiting' | 'awaiting_hitl' {
    return status === 'awaiting_hitl' || (status === 'waiting' && this.humanWaits.size > 0);
  }

  private end(status: Exclude<ThreadStatus, 'running'>, reason: string | undefined): void {
    this.finish({
      kind: 'ended',
      status,
      ...(reason ? { reason } : {}),
      ...(this.error ? { error: this.error } : {}),
      answer: this.answer,
      delivered: this.delivered,
    });
  }
}

/** An agent's text answer: a top-level assistant message with text (not a nested prompt's). */
function isAnswer(message: Message): boolean {
  return message.role === 'assistant' && message.depth === 0 && (message.content ?? '').trim() !== '';
}
