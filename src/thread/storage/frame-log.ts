/**
 * The thread's numbered frame stream (THR-2). Every frame is stored before it is sent, so a client
 * that reconnects with `?after=<seq>` is replayed exactly the frames it missed, none twice. Sockets
 * use the hibernation API: an idle thread with watchers costs nothing.
 */
import type { Frame, NumberedFrame } from '../../engine/ports/index.js';

export class FrameLog {
  /** The object is single-threaded, so the next number can live in memory after one read. */
  private last: number | null = null;

  constructor(private readonly ctx: DurableObjectState) {}

  /** Stores and broadcasts a frame; `scrub` removes secret values from its serialised form (EXE-8). */
  append(frame: Frame, scrub: (text: string) => string): NumberedFrame {
    const seq = this.lastSeq() + 1;
    const numbered = { seq, ...frame } as NumberedFrame;
    const body = scrub(JSON.stringify(numbered));
    this.ctx.storage.sql.exec('INSERT INTO frames (seq, body) VALUES (?, ?)', seq, body);
    this.last = seq;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(body);
      } catch {
        // A socket closing under us is cleaned up by webSocketClose.
      }
    }
    return numbered;
  }

  /**
   * Accepts a hibernatable WebSocket and replays every frame after `after` to it. Acceptance and
   * replay happen in one synchronous block: no frame can slip between them.
   */
  openSocket(after: number): Response {
    const pair = new WebSocketPair();
    const server = pair[1];
    this.ctx.acceptWebSocket(server);
    this.replay(server, Number.isFinite(after) && after > 0 ? after : 0);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** Sends every stored frame after `after` to one socket, in order. */
  replay(socket: WebSocket, after: number): void {
    for (const row of this.ctx.storage.sql.exec<{ body: string }>(
      'SELECT body FROM frames WHERE seq > ? ORDER BY seq',
      after,
    )) {
      socket.send(row.body);
    }
  }

  lastSeq(): number {
    if (this.last === null) {
      this.last =
        this.ctx.storage.sql.exec<{ seq: number | null }>('SELECT max(seq) AS seq FROM frames').one().seq ?? 0;
    }
    return this.last;
  }
}
