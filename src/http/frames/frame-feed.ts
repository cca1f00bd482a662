/**
 * A thread's frames read from the Worker (THR-2), as any client reads them: the thread's WebSocket
 * opened through the stub with `?after=<seq>`, so frames already stored are replayed and live ones
 * follow. Every frame after `after` is handed over once and in order. A socket the thread closes (an
 * evicted or restarted object) is reopened after the last frame seen; after a few closes without a
 * new frame in between the feed gives up, saying so. The MCP agent tools follow turns with it, and
 * `GET /api/threads/:id/events` serves it as Server-Sent Events.
 */

import type { NumberedFrame } from '../../engine/ports/index.js';
import type { Principal } from '../../thread/access/index.js';
import { type RuntimeEnv, threadStub } from '../../thread/bindings/index.js';
import { PRINCIPAL_HEADER, principalHeaderValue } from '../../thread/object/index.js';

/** Socket closes in a row, without a new frame between them, before the feed gives up. */
const MAX_QUIET_RECONNECTS = 3;
const RECONNECT_DELAY_MS = 250;

/**
 * Why a feed ended by itself: `gone`, the thread was deleted (or was never the caller's: THR-6
 * answers both alike); `lost`, its socket closed repeatedly without a new frame.
 */
export type FeedEnd = 'gone' | 'lost';

export interface FrameFeedOptions {
  env: RuntimeEnv;
  principal: Principal;
  threadId: string;
  /** The last frame already seen: the feed starts after it. */
  after: number;
  /** Each frame after `after`, once, in order, with its text as the thread sent it. */
  onFrame(frame: NumberedFrame, text: string): void;
  /** The feed ended by itself; not called after `close()`. */
  onEnd(end: FeedEnd): void;
}

export class FrameFeed {
  private lastSeq: number;
  private socket: WebSocket | null = null;
  private quietCloses = 0;
  private done = false;
  private reconnect: ReturnType<typeof setTimeout> | undefined;
  private settleStart: (outcome: 'open' | FeedEnd) => void = () => {};

  constructor(private readonly options: FrameFeedOptions) {
    this.lastSeq = options.after;
  }

  /** The last frame handed over (or `after`). */
  get last(): number {
    return this.lastSeq;
  }

  /** Opens the first socket; resolves once it is open, or with how the feed ended before it was. */
  start(): Promise<'open' | FeedEnd> {
    const started = new Promise<'open' | FeedEnd>((resolve) => {
      this.settleStart = resolve;
    });
    void this.connect();
    return started;
  }

  /** Stops the feed and closes its socket to the thread; no callback is called afterwards. */
  close(): void {
    if (this.done) return;
    this.stop();
    this.settleStart('lost');
  }

  private end(end: FeedEnd): void {
    if (this.done) return;
    this.settleStart(end);
    this.stop();
    this.options.onEnd(end);
  }

  private stop(): void {
    this.done = true;
    clearTimeout(this.reconnect);
    const socket = this.socket;
    this.socket = null;
    try {
      socket?.close(1000, 'feed closed');
    } catch {
      // Already closed by the thread.
    }
  }

  private async connect(): Promise<void> {
    if (this.done) return;
    const { env, principal, threadId } = this.options;
    let response: Response;
    try {
      response = await threadStub(env, threadId).fetch(
        new Request(`https://thread.internal/stream?after=${this.lastSeq}`, {
          headers: { upgrade: 'websocket', [PRINCIPAL_HEADER]: principalHeaderValue(principal) },
        }),
      );
    } catch {
      this.closed(null);
      return;
    }
    if (response.status === 404) return this.end('gone');
    const socket = response.webSocket;
    if (!socket) return this.closed(null);
    socket.accept();
    if (this.done) {
      socket.close(1000, 'feed closed');
      return;
    }
    this.socket = socket;
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => this.closed(socket));
    socket.addEventListener('error', () => this.closed(socket));
    this.settleStart('open');
  }

  private closed(socket: WebSocket | null): void {
    if (this.done || this.socket !== socket) return;
    this.socket = null;
    this.quietCloses++;
    if (this.quietCloses > MAX_QUIET_RECONNECTS) {
      this.end('lost');
      return;
    }
    // A restarting object needs a moment; the replay after the last frame seen loses nothing meanwhile.
    this.reconnect = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS * this.quietCloses);
  }

  private receive(data: unknown): void {
    // `pong` answers and anything else that is not a frame are not part of the stream.
    if (this.done || typeof data !== 'string' || !data.startsWith('{')) return;
    const frame = JSON.parse(data) as NumberedFrame;
    if (frame.seq <= this.lastSeq) return;
    this.lastSeq = frame.seq;
    this.quietCloses = 0;
    this.options.onFrame(frame, data);
  }
}
