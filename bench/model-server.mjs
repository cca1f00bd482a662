/**
 * The benchmark's model: bench/model-server-http.mjs, an HTTP server on a worker thread of its own
 * that answers at once in each provider's protocol, and here, on the benchmark's thread, the record
 * of every exchange it reports: when a request had fully arrived, and when the last byte of its
 * answer was handed to the OS, both on this thread's performance.now() clock. The gap from one
 * answer's end to the next request's arrival is the client's own time for that round. The runtime
 * and the Floor object (bench/floor.ts) send the same run text, so both are answered alike.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

export { runText } from './model-server-http.mjs';

/** @typedef {import('./model-server-http.mjs').ModelEvent} ModelEvent */
/** @typedef {{ arrivedAt: number, finishedAt: number | null, bodyBytes: number }} Exchange */
/**
 * @typedef {object} Run
 * @property {Exchange[]} exchanges In arrival order.
 * @property {number | null} doneAt When the final (text) answer ended.
 * @property {Array<() => void>} waiters Called on every arrival and on the final answer's end.
 */

export async function startTimedModelServer() {
  /** @type {Map<string, Run>} */
  const runs = new Map();
  /** @param {string} nonce @returns {Run} */
  const runOf = (nonce) => {
    let run = runs.get(nonce);
    if (!run) {
      run = { exchanges: [], doneAt: null, waiters: [] };
      runs.set(nonce, run);
    }
    return run;
  };
  /** @param {Run} run */
  const notify = (run) => {
    for (const waiter of run.waiters.splice(0)) waiter();
  };
  /**
   * Resolves with `value()` once it is not undefined, checked now and after every event of the run.
   * @template T
   * @param {string} nonce
   * @param {() => T | undefined} value
   * @param {number} timeoutMs
   * @param {string} what
   * @returns {Promise<T>}
   */
  const when = (nonce, value, timeoutMs, what) =>
    new Promise((resolve, reject) => {
      const run = runOf(nonce);
      const timer = setTimeout(() => reject(new Error(`run ${nonce}: ${what} not within ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        const found = value();
        if (found === undefined) {
          run.waiters.push(check);
          return;
        }
        clearTimeout(timer);
        resolve(found);
      };
      check();
    });

  const worker = new Worker(new URL('./model-server-http.mjs', import.meta.url));
  /** The reported instant on this thread's performance.now() clock. */
  const local = (/** @type {number} */ at) => at - performance.timeOrigin;
  const port = await new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (/** @type {ModelEvent} */ event) => {
      if (event.type === 'listening') {
        resolve(event.port);
        return;
      }
      const run = runOf(event.nonce);
      if (event.type === 'arrived') {
        run.exchanges.push({ arrivedAt: local(event.at), finishedAt: null, bodyBytes: event.bodyBytes });
      } else {
        const exchange = /** @type {Exchange} */ (run.exchanges[event.index]);
        exchange.finishedAt = local(event.at);
        if (event.done) run.doneAt = exchange.finishedAt;
      }
      notify(run);
    });
  });

  return {
    /** The server's origin; OpenAI's base URL is this with `/v1`, Anthropic's and Google's this alone. */
    origin: `http://127.0.0.1:${port}`,
    /**
     * Resolves with the time (performance.now()) the run's final text answer ended.
     * @param {string} nonce
     * @param {number} timeoutMs
     * @returns {Promise<number>}
     */
    finished(nonce, timeoutMs) {
      const run = runOf(nonce);
      return when(nonce, () => run.doneAt ?? undefined, timeoutMs, 'the final answer');
    },
    /**
     * Resolves with the arrival time of the run's `count`-th request.
     * @param {string} nonce
     * @param {number} count
     * @param {number} timeoutMs
     * @returns {Promise<number>}
     */
    arrived(nonce, count, timeoutMs) {
      const run = runOf(nonce);
      return when(nonce, () => run.exchanges[count - 1]?.arrivedAt, timeoutMs, `request ${count}`);
    },
    /**
     * Every exchange of a run so far, in order.
     * @param {string} nonce
     * @returns {readonly Exchange[]}
     */
    exchanges(nonce) {
      return runOf(nonce).exchanges;
    },
    /**
     * The client's time per round of a run, in ms: each answer's end to the next request's arrival.
     * @param {string} nonce
     */
    gaps(nonce) {
      const exchanges = runOf(nonce).exchanges;
      return exchanges.slice(1).map((exchange, index) => {
        const previous = /** @type {Exchange} */ (exchanges[index]);
        if (previous.finishedAt === null) throw new Error(`run ${nonce}: a request arrived before the answer ended`);
        return exchange.arrivedAt - previous.finishedAt;
      });
    },
    /**
     * The model's own time in a run, in ms: each request's arrival to the end of its answer.
     * @param {string} nonce
     */
    serviceTimes(nonce) {
      return runOf(nonce).exchanges.map(({ arrivedAt, finishedAt }) => (finishedAt ?? arrivedAt) - arrivedAt);
    },
    /**
     * Request body sizes of a run, in bytes.
     * @param {string} nonce
     */
    bodySizes(nonce) {
      return runOf(nonce).exchanges.map((exchange) => exchange.bodyBytes);
    },
    /** @param {string} nonce Drops a run's records once read. */
    forget(nonce) {
      runs.delete(nonce);
      worker.postMessage({ type: 'forget', nonce });
    },
    close() {
      const exited = new Promise((resolve) => worker.once('exit', () => resolve(undefined)));
      worker.postMessage({ type: 'close' });
      return exited;
    },
  };
}
