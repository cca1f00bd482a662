/**
 * Following one turn of a thread through its frame stream (THR-2), as any client does: the Worker
 * opens the thread's WebSocket through the stub with `?after=<seq>`, so frames already stored are
 * replayed and live ones follow, none missed and none twice. No timer polls anything: the turn is
 * over when a `status` frame after the caller's message says so.
 *
 * - The caller's message is recognised by its `message` frame. Until it is in the log, the thread
 *   may still be busy with an earlier turn, whose end says nothing about this one.
 * - A thread that parks on a wait a human must answer ends the follow; one waiting only for its
 *   child threads resumes by itself (SUB-7), so the follow goes on.
 * - A socket the thread closes (an evicted or restarted object) is reopened after the last frame
 *   seen; after a few closes without a new frame in between the follow gives up, saying so.
 * - After `deadlineMs` the follow stops, saying the turn still runs.
 */
import type { NumberedFrame } from '../../engine/ports/index.js';
import type { Message, ThreadStatus } from '../../spec/index.js';
import { HUMAN_INTERACTIONS } from '../../spec/internal.js';
import { type RuntimeEnv, threadStub } from '../../thread/bindings/index.js';
import { USER_HEADER } from '../../thread/object/index.js';

/** Socket closes in a row, without a new frame between them, before the follow gives up. */
const MAX_QUIET_RECONNECTS = 3;
const RECONNECT_DELAY_MS = 250;

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
  userId: string;
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
  private lastSeq: number;
  private delivered = false;
  private answer = '';
  private error: { code: string; message: string } | undefined;
  /** Waits a human must answer, opened and not yet answered, by tool call id. */
  private readonly humanWaits = new Set<string>();
  private socket: WebSocket | null = null;
  private quietCloses = 0;
  private done = false;
  private settle: (end: TurnEnd) => void = () => {};
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: FollowTurnOptions) {
    this.lastSeq = options.after;
  }

  run(): Promise<TurnEnd> {
    return new Promise<TurnEnd>((resolve) => {
      this.settle = resolve;
      this.timer = setTimeout(
        () => this.finish({ kind: 'still_running', why: 'deadline', answer: this.answer }),
        this.options.deadlineMs,
      );
      void this.connect();
    });
  }

  private finish(end: TurnEnd): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    try {
      socket?.close(1000, 'turn followed');
    } catch {
      // Already closed by the thread.
    }
    this.settle(end);
  }

  private async connect(): Promise<void> {
    if (this.done) return;
    const { env, userId, threadId } = this.options;
    let response: Response;
    try {
      response = await threadStub(env, threadId).fetch(
        new Request(`https://thread.internal/stream?after=${this.lastSeq}`, {
          headers: { upgrade: 'websocket', [USER_HEADER]: userId },
        }),
      );
    } catch {
      this.closed(null);
      return;
    }
    // The thread was deleted meanwhile (or was never the caller's: THR-6 answers both alike).
    if (response.status === 404) return this.finish({ kind: 'gone' });
    const socket = response.webSocket;
    if (!socket) return this.closed(null);
    socket.accept();
    if (this.done) {
      socket.close(1000, 'turn followed');
      return;
    }
    this.socket = socket;
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => this.closed(socket));
    socket.addEventListener('error', () => this.closed(socket));
  }

  private closed(socket: WebSocket | null): void {
    if (this.done || this.socket !== socket) return;
    this.socket = null;
    this.quietCloses++;
    if (this.quietCloses > MAX_QUIET_RECONNECTS) {
      this.finish({ kind: 'still_running', why: 'stream_lost', answer: this.answer });
      return;
    }
    // A restarting object needs a moment; the replay after the last frame seen loses nothing meanwhile.
    setTimeout(() => void this.connect(), RECONNECT_DELAY_MS * this.quietCloses);
  }

  private receive(data: unknown): void {
    // `pong` answers and anything else that is not a frame are not part of the turn.
    if (this.done || typeof data !== 'string' || !data.startsWith('{')) return;
    const frame = JSON.parse(data) as NumberedFrame;
    if (frame.seq <= this.lastSeq) return;
    this.lastSeq = frame.seq;
    this.quietCloses = 0;
    this.handle(frame);
  }

  private handle(frame: NumberedFrame): void {
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
