/**
 * One consumer's view of a stream as an async iterator: frames pushed while nobody awaits are
 * queued, a pending `next()` is resolved by the next frame, and the end (or a fatal error) is
 * delivered after the frames queued before it.
 */

type Waiter<T> = { resolve: (result: IteratorResult<T, undefined>) => void; reject: (error: unknown) => void };

export class FrameQueue<T> implements AsyncIterableIterator<T, undefined> {
  private readonly queued: T[] = [];
  private readonly waiters: Waiter<T>[] = [];
  private ended = false;
  private failure: { error: unknown } | null = null;

  /** `onReturn` runs when the consumer stops early (`break` in a `for await`). */
  constructor(private readonly onReturn: (queue: FrameQueue<T>) => void) {}

  push(value: T): void {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ value, done: false });
    else this.queued.push(value);
  }

  /** No more values; with `error`, iteration throws it once the queue is drained. */
  end(error?: { error: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error ?? null;
    for (const waiter of this.waiters.splice(0)) this.settle(waiter);
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const value = this.queued.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      if (this.ended) this.settle(waiter);
      else this.waiters.push(waiter);
    });
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.queued.length = 0;
    this.failure = null;
    this.end();
    this.onReturn(this);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private settle(waiter: Waiter<T>): void {
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      waiter.reject(error);
    } else {
      waiter.resolve({ value: undefined, done: true });
    }
  }
}
