/**
 * A Node client for the runtime's HTTP API and thread WebSocket, as an application would use them
 * against a running `wrangler dev`: bearer-key requests, and a socket that records every frame so a
 * test can wait for a condition with a deadline instead of sleeping.
 */
import type { Message } from '@standardagents/spec';
import WebSocket from 'ws';
import type { NumberedFrame } from '../../src/engine/ports/frames.js';

export interface ThreadView {
  id: string;
  status: 'idle' | 'running' | 'error';
  message_count: number;
  last_error: string | null;
  last_frame_seq: number;
}

export class ApiClient {
  constructor(
    readonly origin: string,
    private readonly key: string,
  ) {}

  /** A request under the origin; `key: null` sends none. */
  request(path: string, init: { method?: string; json?: unknown; key?: string | null } = {}): Promise<Response> {
    const headers = new Headers();
    const key = init.key === undefined ? this.key : init.key;
    if (key !== null) headers.set('authorization', `Bearer ${key}`);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    const body = init.json === undefined ? undefined : JSON.stringify(init.json);
    return fetch(`${this.origin}${path}`, { method: init.method ?? 'GET', headers, body });
  }

  async json<T>(path: string, init: { method?: string; json?: unknown } = {}, expected = 200): Promise<T> {
    const response = await this.request(path, init);
    const text = await response.text();
    if (response.status !== expected) {
      throw new Error(`${init.method ?? 'GET'} ${path}: expected ${expected}, got ${response.status} ${text}`);
    }
    return JSON.parse(text) as T;
  }

  createThread(body: Record<string, unknown>): Promise<ThreadView> {
    return this.json('/api/threads', { method: 'POST', json: body }, 201);
  }

  postMessage(id: string, content: string): Promise<{ messageId: string; queued: boolean }> {
    return this.json(`/api/threads/${id}/messages`, { method: 'POST', json: { content } }, 202);
  }

  thread(id: string): Promise<ThreadView> {
    return this.json(`/api/threads/${id}`);
  }

  /**
   * The thread's view once the turn a posted message started has ended; null while it runs. A
   * message's turn starts at the thread's next alarm: until then the thread reads idle with the
   * message last in its log, which is a turn not yet begun, not one ended.
   */
  async endedTurn(id: string): Promise<ThreadView | null> {
    const view = await this.thread(id);
    if (view.status === 'running') return null;
    if (view.status === 'idle' && (await this.messages(id)).at(-1)?.role === 'user') return null;
    return view;
  }

  /** The log; `depth` 1 adds what ran nested (prompt tools, calls a tool invoked). */
  async messages(id: string, depth?: number): Promise<Message[]> {
    const query = depth === undefined ? '' : `&depth=${depth}`;
    return (await this.json<{ messages: Message[] }>(`/api/threads/${id}/messages?limit=1000${query}`)).messages;
  }

  /** Opens the thread's WebSocket with the key as `?token=` and resolves once it is open. */
  async openStream(id: string, after?: number): Promise<FrameRecorder> {
    const url = new URL(`/api/threads/${id}/stream`, this.origin.replace(/^http/, 'ws'));
    url.searchParams.set('token', this.key);
    if (after !== undefined) url.searchParams.set('after', String(after));
    const recorder = new FrameRecorder(new WebSocket(url));
    await recorder.opened;
    return recorder;
  }
}

/** Records every frame a thread socket receives, in arrival order. */
export class FrameRecorder {
  readonly frames: NumberedFrame[] = [];
  readonly opened: Promise<void>;
  private pongs = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly socket: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`WebSocket refused with HTTP ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'pong') this.pongs++;
      else this.frames.push(JSON.parse(text) as NumberedFrame);
      for (const listener of this.listeners) listener();
    });
  }

  /** Resolves once `check` holds for the frames received so far; fails after `timeoutMs`. */
  waitFor(check: (frames: readonly NumberedFrame[]) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return this.until(() => check(this.frames), what, timeoutMs);
  }

  /**
   * Sends `ping` and waits for `pong`. The socket delivers in order, so every frame the thread sent
   * before it answered has been received by then.
   */
  async flush(timeoutMs = 10_000): Promise<void> {
    const target = this.pongs + 1;
    const answered = this.until(() => this.pongs >= target, 'pong', timeoutMs);
    this.socket.send('ping');
    await answered;
  }

  private until(holds: () => boolean, what: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (!holds()) return;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(this.frames.map(summary))}`));
      }, timeoutMs);
      this.listeners.add(listener);
      listener();
    });
  }

  close(): void {
    this.socket.close();
  }
}

function summary(frame: NumberedFrame): string {
  return frame.type === 'status' ? `${frame.seq}:status:${frame.status}` : `${frame.seq}:${frame.type}`;
}
