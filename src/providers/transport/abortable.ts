/**
 * Waiting that an abort cuts short (THR-4): the reason an aborted operation rejects with, a promise
 * that rejects as soon as the signal aborts, and a sleep a stopped thread never sits out.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What an aborted operation rejects with: the signal's reason, as fetch does. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Settles like `promise`, but rejects with the abort reason as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // The abandoned promise may still reject; it must not surface as unhandled.
    promise.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Waits `ms`, or rejects with the abort reason as soon as `signal` aborts: `AbortSignal.timeout` is the
 * timer and `AbortSignal.any` joins it to the caller's signal. (In Node the timeout's timer does not
 * keep the process alive; in a Worker the request does.)
 */
export const sleep: Sleep = (ms, signal) => {
  // Node's AbortSignal.timeout takes whole milliseconds only (`retry-after-ms` may carry a fraction).
  const timer = AbortSignal.timeout(Math.max(0, Math.ceil(ms)));
  const either = signal ? AbortSignal.any([timer, signal]) : timer;
  return new Promise<void>((resolve, reject) => {
    // The caller's signal decides, not the reason: a caller may abort with a TimeoutError of its own.
    const settle = () => (signal?.aborted ? reject(abortReason(signal)) : resolve());
    if (either.aborted) settle();
    else either.addEventListener('abort', settle, { once: true });
  });
};
