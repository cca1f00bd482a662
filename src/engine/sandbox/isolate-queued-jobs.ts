/**
 * A sandboxed program's timers and queued jobs, as JavaScript text for the isolate's main module
 * (CODE-1). `setTimeout` and `setInterval` are wrapped so that every timer the program sets is cleared
 * when the run ends, a program clears only its own (the run's deadline and heartbeat are not its to
 * clear), and a timer firing counts as a pause. Each timer, microtask and promise reaction is held
 * until it runs, so each is charged to the memory ledger; and a queued job that throws the halt's
 * error once the run is halted ends quietly: a program that queued a million of them before a limit
 * would otherwise throw that error a million times after it, each reported by workerd as uncaught.
 *
 * Like the ledger (isolate-ledger.ts) it is text the main module embeds; it relies on the primordials
 * and the run state main.js defines (`apply`, `defineProperty`, `clock`, `enqueue`, `originalTimers`,
 * `timerIds`, `halted`, `pausedAt`, `charge`, `QUEUED_JOB_BYTES`, ...).
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw, so a regex or escape added later reaches main.js as written.
export const QUEUED_JOBS_SOURCE = String.raw`
// Timers, wrapped so every one the program sets can be cleared when the run ends.
function wrapTimer(setName, clearName) {
  const set = originalTimers[setName];
  const clear = originalTimers[clearName];
  globalThis[setName] = (callback, delay, ...args) => {
    if (halted !== null) throw halted.error;
    if (typeof callback !== 'function') throw new TypeError(setName + ' needs a function');
    charge(QUEUED_JOB_BYTES);
    const once = setName === 'setTimeout';
    const id = apply(set, globalThis, [
      () => {
        if (once) apply(mapDelete, timerIds, [id]);
        // The program waited for this timer: it paused.
        pausedAt = clock();
        apply(callback, globalThis, args);
      },
      delay,
    ]);
    apply(mapSet, timerIds, [id, clear]);
    return id;
  };
  // Only the program's own timers: the deadline and the heartbeat are not its to clear.
  globalThis[clearName] = (id) => {
    if (apply(mapDelete, timerIds, [id])) apply(clear, globalThis, [id]);
  };
}
wrapTimer('setTimeout', 'clearTimeout');
wrapTimer('setInterval', 'clearInterval');

// Queued jobs: a microtask, a promise's reactions.
const promiseThen = Promise.prototype.then;
function endingQuietly(callback) {
  if (typeof callback !== 'function') return callback;
  return function (...args) {
    try {
      return apply(callback, this, args);
    } catch (error) {
      if (halted !== null && error === halted.error) return undefined;
      throw error;
    }
  };
}
globalThis.queueMicrotask = function queueMicrotask(callback) {
  if (typeof callback === 'function') charge(QUEUED_JOB_BYTES);
  return apply(enqueue, globalThis, [endingQuietly(callback)]);
};
defineProperty(Promise.prototype, 'then', {
  value: function then(onFulfilled, onRejected) {
    charge(QUEUED_JOB_BYTES);
    return apply(promiseThen, this, [endingQuietly(onFulfilled), endingQuietly(onRejected)]);
  },
  writable: true,
  configurable: true,
  enumerable: false,
});
`;
