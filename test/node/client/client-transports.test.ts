/**
 * The client's stream transports on fakes, with fake timers: the WebSocket transport's heartbeat
 * (`ping` on open and every interval, a missing `pong` is a dead socket) and its probe of a socket
 * refused before it opened; the fetch event-stream transport's parsing of events split anywhere,
 * heartbeat comments, `Last-Event-ID`, permanent and passing refusals and its silence limit; the
 * EventSource transport's frames and failures.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../client/api-error.js';
import { eventSourceTransport } from '../../../client/eventsource-transport.js';
import type { FetchLike, WebSocketLike } from '../../../client/options.js';
import { sseTransport } from '../../../client/sse-transport.js';
import type { TransportEvents } from '../../../client/transport.js';
import { webSocketTransport } from '../../../client/websocket-transport.js';

type Listener = (event: { data: unknown }) => void;

/** Records what a transport reports. */
function observer() {
  const seen: string[] = [];
  const closes: Parameters<TransportEvents['closed']>[0][] = [];
  const events: TransportEvents = {
    open: () => seen.push('open'),
    message: (text) => seen.push(`message ${text}`),
    alive: () => seen.push('alive'),
    closed: (why) => {
      seen.push('closed');
      closes.push(why);
    },
  };
  return { seen, closes, events };
}

class FakeSocket implements WebSocketLike {
  static sockets: FakeSocket[] = [];
  readyState = 0;
  readonly sent: string[] = [];
  terminated = false;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly url: string) {
    FakeSocket.sockets.push(this);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data?: unknown): void {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.sockets = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the WebSocket transport', () => {
  const open = (probe: () => Promise<ApiError | null> = async () => null) => {
    const watcher = observer();
    const connection = webSocketTransport({
      WebSocket: FakeSocket,
      url: (after) => `ws://host/api/threads/t/stream?after=${after}`,
      heartbeatMs: 1000,
      probe,
    })(42, watcher.events);
    return { ...watcher, connection, socket: FakeSocket.sockets.at(-1) as FakeSocket };
  };

  it('asks for the frames after the position and passes frames on; pongs are signs of life', () => {
    const { socket, seen } = open();
    expect(socket.url).toBe('ws://host/api/threads/t/stream?after=42');
    socket.emit('open');
    socket.emit('message', '{"seq":43,"type":"event"}');
    socket.emit('message', 'pong');
    socket.emit('message', new TextEncoder().encode('{"seq":44,"type":"event"}'));
    expect(seen).toEqual(['open', 'message {"seq":43,"type":"event"}', 'alive', 'message {"seq":44,"type":"event"}']);
  });

  it('pings on open and every interval while pongs come back', () => {
    const { socket, seen } = open();
    socket.emit('open');
    expect(socket.sent).toEqual(['ping']);
    for (let beat = 0; beat < 5; beat++) {
      socket.emit('message', 'pong');
      vi.advanceTimersByTime(1000);
    }
    expect(socket.sent).toHaveLength(6);
    expect(seen).not.toContain('closed');
  });

  it('reports a socket whose ping goes unanswered as dead, and drops it', () => {
    const { socket, seen, closes } = open();
    socket.emit('open');
    socket.emit('message', 'pong');
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(999);
    expect(seen).not.toContain('closed');
    vi.advanceTimersByTime(1);
    expect(seen.at(-1)).toBe('closed');
    expect(String(closes[0]?.error)).toContain('no pong');
    expect(socket.terminated).toBe(true);
    socket.emit('message', '{"seq":43,"type":"event"}');
    socket.emit('close');
    expect(seen.filter((event) => event === 'closed')).toHaveLength(1);
    expect(seen.filter((event) => event.startsWith('message'))).toEqual([]);
  });

  it('reports a drop once, and nothing after the stream closed it itself', () => {
    const dropped = open();
    dropped.socket.emit('open');
    dropped.socket.emit('close');
    dropped.socket.emit('error');
    expect(dropped.closes).toEqual([{ error: expect.any(Error) }]);

    const closed = open();
    closed.socket.emit('open');
    closed.connection.close();
    closed.socket.emit('close');
    vi.advanceTimersByTime(10_000);
    expect(closed.seen).toEqual(['open']);
    expect(closed.socket.terminated).toBe(true);
  });

  it('asks the probe why a socket closed before it opened: a refusal is permanent', async () => {
    const refusal = new ApiError(404, 'thread_not_found', 'no thread t');
    const refused = open(async () => refusal);
    refused.socket.emit('error');
    refused.socket.emit('close');
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.closes).toEqual([{ fatal: refusal }]);

    const unreachable = open(async () => null);
    unreachable.socket.emit('close');
    await vi.advanceTimersByTimeAsync(0);
    expect(unreachable.closes).toEqual([{ error: expect.any(Error) }]);

    const abandoned = open(async () => refusal);
    abandoned.socket.emit('close');
    abandoned.connection.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(abandoned.closes).toEqual([]);
  });
});

/** A fetch answering the events route with a body the test writes into. */
function eventsFetch(status = 200, body?: string) {
  const requests: Request[] = [];
  let writer: ReadableStreamDefaultController<Uint8Array> | null = null;
  const fetch: FetchLike = async (input, init) => {
    requests.push(new Request(input, init));
    if (body !== undefined) return new Response(body, { status, headers: { 'content-type': 'application/json' } });
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        writer = controller;
      },
    });
    return new Response(stream, { status, headers: { 'content-type': 'text/event-stream' } });
  };
  const write = (text: string) => writer?.enqueue(new TextEncoder().encode(text));
  const end = () => writer?.close();
  return { fetch, requests, write, end };
}

describe('the fetch event-stream transport', () => {
  const open = (server: ReturnType<typeof eventsFetch>) => {
    const watcher = observer();
    const connection = sseTransport({
      fetch: server.fetch,
      url: 'http://host/api/threads/t/events',
      headers: { authorization: 'Bearer key' },
      idleMs: 5000,
    })(7, watcher.events);
    return { ...watcher, connection };
  };

  it('sends the key and Last-Event-ID, and parses frames however the bytes are split', async () => {
    const server = eventsFetch();
    const { seen } = open(server);
    await vi.advanceTimersByTimeAsync(0);
    const request = server.requests[0] as Request;
    expect(request.headers.get('authorization')).toBe('Bearer key');
    expect(request.headers.get('last-event-id')).toBe('7');
    expect(request.headers.get('accept')).toBe('text/event-stream');
    for (const piece of [
      'retry: 1000\n\nid: 8\nev',
      'ent: frame\ndata: {"seq":8,',
      '"type":"event"}\n',
      '\n: heart',
      'beat\n\n',
    ]) {
      server.write(piece);
      await vi.advanceTimersByTimeAsync(0);
    }
    server.write('id: 9\r\nevent: frame\r\ndata: {"seq":9,"type":"event"}\r\n\r\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['open', 'message {"seq":8,"type":"event"}', 'alive', 'message {"seq":9,"type":"event"}']);
  });

  it('reports the end of the stream and a silence longer than the limit as drops', async () => {
    const ended = eventsFetch();
    const first = open(ended);
    await vi.advanceTimersByTimeAsync(0);
    ended.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(first.closes).toEqual([{ error: expect.any(Error) }]);

    const silent = eventsFetch();
    const second = open(silent);
    await vi.advanceTimersByTimeAsync(4000);
    silent.write(': heartbeat\n\n');
    await vi.advanceTimersByTimeAsync(4999);
    expect(second.closes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(String(second.closes[0]?.error)).toContain('nothing received');
    expect(silent.requests[0]?.signal.aborted).toBe(true);
  });

  it('calls a 4xx permanent and anything else worth another attempt', async () => {
    const missing = open(eventsFetch(404, '{"error":{"code":"thread_not_found","message":"no thread t"}}'));
    const busy = open(eventsFetch(503, '{"error":{"code":"stream_unavailable","message":"try again"}}'));
    const limited = open(eventsFetch(429, 'slow down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(missing.closes).toEqual([{ fatal: expect.objectContaining({ status: 404, code: 'thread_not_found' }) }]);
    expect(busy.closes).toEqual([{ error: expect.objectContaining({ status: 503, code: 'stream_unavailable' }) }]);
    expect(limited.closes).toEqual([{ error: expect.objectContaining({ status: 429, code: 'http_429' }) }]);
  });

  it('aborts the request on close() and reports nothing', async () => {
    const server = eventsFetch();
    const { connection, seen } = open(server);
    await vi.advanceTimersByTimeAsync(0);
    connection.close();
    server.write('id: 8\nevent: frame\ndata: {"seq":8,"type":"event"}\n\n');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen).toEqual(['open']);
    expect(server.requests[0]?.signal.aborted).toBe(true);
  });
});

describe('the EventSource transport', () => {
  class FakeSource {
    static sources: FakeSource[] = [];
    closed = false;
    readonly listeners = new Map<string, Listener[]>();
    constructor(readonly url: string) {
      FakeSource.sources.push(this);
    }
    close(): void {
      this.closed = true;
    }
    addEventListener(type: string, listener: Listener): void {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    emit(type: string, data?: unknown): void {
      for (const listener of this.listeners.get(type) ?? []) listener({ data });
    }
  }

  it('passes frame events on, and closes itself on an error so the stream reconnects', async () => {
    const refusal = new ApiError(401, 'unauthorized', 'invalid API key');
    let probed = 0;
    const transport = eventSourceTransport({
      EventSource: FakeSource,
      url: (after) => `http://host/api/threads/t/events?after=${after}&token=key`,
      probe: async () => {
        probed++;
        return refusal;
      },
    });
    const live = observer();
    transport(3, live.events);
    const source = FakeSource.sources.at(-1) as FakeSource;
    expect(source.url).toBe('http://host/api/threads/t/events?after=3&token=key');
    source.emit('open');
    source.emit('frame', '{"seq":4,"type":"event"}');
    source.emit('error');
    source.emit('frame', '{"seq":5,"type":"event"}');
    expect(live.seen).toEqual(['open', 'message {"seq":4,"type":"event"}', 'closed']);
    expect(source.closed).toBe(true);
    expect(probed).toBe(0);

    const refused = observer();
    transport(0, refused.events);
    (FakeSource.sources.at(-1) as FakeSource).emit('error');
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.closes).toEqual([{ fatal: refusal }]);
  });
});
