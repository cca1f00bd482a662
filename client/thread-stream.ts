/**
 * A thread's frames, exactly once and in order, across any number of dropped connections. The
 * stream owns one connection at a time through a Transport; every frame passes the sequencer
 * (duplicates dropped, a gap resumes from the last frame delivered); a drop schedules a new
 * connection after a jittered exponential backoff, from the last frame delivered. Frames reach
 * callbacks (`on`) and async iterators alike. It ends on `close()`, or when the API says retrying
 * cannot help (a bad key, a deleted thread): then `error` says why and iterators throw it.
 */
import type { ApiError } from './api-error.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { FrameQueue } from './frame-queue.js';
import { type Frame, type FrameOf, type FrameType, parseFrame } from './frames.js';
import { FrameSequencer } from './sequencer.js';
import type { Connection, Transport, TransportEvents } from './transport.js';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ThreadStream extends AsyncIterable<Frame> {
  /** Calls `listener` with every frame of `type` (`'*'`: every frame); returns the unsubscribe. */
  on<T extends FrameType>(type: T, listener: (frame: FrameOf<T>) => void): () => void;
  on(type: '*', listener: (frame: Frame) => void): () => void;
  /** Calls `listener` on every change of `state`; returns the unsubscribe. */
  onState(listener: (state: StreamState) => void): () => void;
  /** The seq of the last frame delivered: where a new connection resumes. */
  readonly lastSeq: number;
  readonly state: StreamState;
  /** Why the stream closed by itself (a permanent refusal), or null. */
  readonly error: ApiError | null;
  /**
   * Frames from the moment it is called: iterate at once. Leaving the loop early (`break`) closes
   * the stream, as it closes a Node stream.
   */
  [Symbol.asyncIterator](): AsyncIterator<Frame, undefined>;
  /** Closes the connection, cancels any reconnect, ends every iterator. */
  close(): void;
}

export interface ReconnectOptions extends BackoffOptions {
  /** Deliver the frames after this seq; default 0 (all of them). */
  after?: number;
}

type Listener = (frame: Frame) => void;

/** Runs a callback, reporting what it throws without breaking the stream for the others. */
function guarded<T>(callback: (value: T) => void, value: T): void {
  try {
    callback(value);
  } catch (error) {
    const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
    if (typeof report === 'function') report(error);
    else
      setTimeout(() => {
        throw error;
      });
  }
}

export class ReconnectingStream implements ThreadStream {
  private readonly sequencer: FrameSequencer;
  private readonly backoff: Backoff;
  private readonly listeners = new Map<FrameType | '*', Set<Listener>>();
  private readonly stateListeners = new Set<(state: StreamState) => void>();
  private readonly queues = new Set<FrameQueue<Frame>>();
  private connection: Connection | null = null;
  /** Counts connections: events of an earlier one are ignored. */
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private current: StreamState = 'connecting';
  private failure: ApiError | null = null;

  constructor(
    private readonly transport: Transport,
    options: ReconnectOptions = {},
  ) {
    this.sequencer = new FrameSequencer(options.after ?? 0);
    this.backoff = new Backoff(options);
    this.connect();
  }

  get lastSeq(): number {
    return this.sequencer.lastSeq;
  }

  get state(): StreamState {
    return this.current;
  }

  get error(): ApiError | null {
    return this.failure;
  }

  on<T extends FrameType>(type: T, listener: (frame: FrameOf<T>) => void): () => void;
  on(type: '*', listener: (frame: Frame) => void): () => void;
  on(type: FrameType | '*', listener: (frame: never) => void): () => void {
    const set = this.listeners.get(type) ?? new Set<Listener>();
    this.listeners.set(type, set);
    // Frames of `type` only reach this listener, so its narrower parameter is sound.
    const wide = listener as Listener;
    set.add(wide);
    return () => {
      set.delete(wide);
    };
  }

  onState(listener: (state: StreamState) => void): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  [Symbol.asyncIterator](): AsyncIterator<Frame, undefined> {
    const queue = new FrameQueue<Frame>((done) => {
      this.queues.delete(done);
      this.close();
    });
    if (this.current === 'closed') queue.end(this.failure ? { error: this.failure } : undefined);
    else this.queues.add(queue);
    return queue;
  }

  close(): void {
    this.shutDown(null);
  }

  private connect(): void {
    const generation = ++this.generation;
    const live = () => generation === this.generation && this.current !== 'closed';
    let gone = false;
    let connection: Connection;
    try {
      connection = this.transport(
        this.sequencer.lastSeq,
        this.eventsFor(live, () => {
          gone = true;
        }),
      );
    } catch {
      // A transport that cannot even start (a constructor throwing) is a failed attempt like any other.
      if (live()) this.retry();
      return;
    }
    // A transport may report `closed` before it returns; then there is nothing to keep.
    if (!gone && live()) this.connection = connection;
  }

  /** The events of one connection; `live` says whether it is still the stream's. */
  private eventsFor(live: () => boolean, onGone: () => void): TransportEvents {
    return {
      open: () => {
        if (live()) this.setState('open');
      },
      alive: () => {
        if (live()) this.backoff.reset();
      },
      message: (text) => {
        if (live()) this.receive(text);
      },
      closed: (why) => {
        onGone();
        if (!live()) return;
        this.connection = null;
        if (why.fatal) this.shutDown(why.fatal);
        else this.retry();
      },
    };
  }

  private receive(text: string): void {
    const frame = parseFrame(text);
    if (!frame) return;
    switch (this.sequencer.accept(frame.seq)) {
      case 'duplicate':
        return;
      case 'gap':
        // Frames were skipped: drop this connection and resume from the last frame delivered.
        this.drop();
        this.retry();
        return;
      case 'deliver':
        this.backoff.reset();
        this.deliver(frame);
    }
  }

  private deliver(frame: Frame): void {
    for (const listener of [...(this.listeners.get(frame.type) ?? []), ...(this.listeners.get('*') ?? [])]) {
      guarded(listener, frame);
    }
    for (const queue of this.queues) queue.push(frame);
  }

  private retry(): void {
    if (this.current === 'closed') return;
    this.setState('reconnecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.current !== 'closed') this.connect();
    }, this.backoff.next());
  }

  /** Abandons the current connection; its later events are ignored. */
  private drop(): void {
    this.generation++;
    const connection = this.connection;
    this.connection = null;
    connection?.close();
  }

  private shutDown(failure: ApiError | null): void {
    if (this.current === 'closed') return;
    this.failure = failure;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.drop();
    this.setState('closed');
    for (const queue of this.queues) queue.end(failure ? { error: failure } : undefined);
    this.queues.clear();
  }

  private setState(state: StreamState): void {
    if (state === this.current) return;
    this.current = state;
    for (const listener of [...this.stateListeners]) guarded(listener, state);
  }
}
