/**
 * The benchmark's model: a server that answers at once in the protocol of each provider adapter
 * (bench/wire-protocols.mjs), with the same bytes as the test servers, and timestamps every exchange:
 * when a request has fully arrived, and when the last byte of its answer was handed to the OS. The gap
 * from one answer's end to the next request's arrival is the client's own time for that round. The
 * runtime and the Floor object (bench/floor.ts) send the same run text, so both are answered alike.
 *
 * A run is named by a nonce in the last user text of its conversation:
 *   `bench <nonce> rounds:<n>`  calls `noop` until the turn holds n tool results, then answers text;
 *   `... program:<k>`           calls `bench_program` with `{ calls: k }` instead;
 *   `... tool:<name>`           calls the tool `name` with `{}` instead (an MCP tool);
 *   `... stall:<k>`             the run's first k answers send two events and then nothing more,
 *                               holding the connection open (a model that hangs mid-stream).
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PROTOCOLS } from './wire-protocols.mjs';

const RUN = /^bench (\S+) rounds:(\d+)(?: program:(\d+))?(?: tool:(\S+))?(?: stall:(\d+))?$/;
/** Events a stalled answer sends before it stops (the first carries the role, the next the text). */
const STALL_AFTER_EVENTS = 2;

/** @typedef {{ arrivedAt: number, finishedAt: number | null, bodyBytes: number }} Exchange */
/**
 * @typedef {object} Run
 * @property {Exchange[]} exchanges In arrival order.
 * @property {number | null} doneAt When the final (text) answer ended.
 * @property {Array<() => void>} waiters Called on every arrival and on the final answer's end.
 */

/**
 * The text that starts a run: what a thread's user message (or the Floor's) says.
 * @param {string} nonce
 * @param {number} rounds
 * @param {{ program?: number, tool?: string, stall?: number }} [options]
 */
export function runText(nonce, rounds, { program, tool, stall } = {}) {
  return [
    `bench ${nonce} rounds:${rounds}`,
    program === undefined ? '' : ` program:${program}`,
    tool === undefined ? '' : ` tool:${tool}`,
    stall === undefined ? '' : ` stall:${stall}`,
  ].join('');
}

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

  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedAt = performance.now();
      const raw = Buffer.concat(chunks);
      const body = parseJson(raw.toString('utf8'));
      const path = (req.url ?? '').split('?')[0] ?? '';
      const protocol = PROTOCOLS.find((candidate) => candidate.serves(path));
      const conversation = protocol && body !== null ? protocol.conversation(body) : [];
      const start = conversation.findLastIndex(
        (turn) => turn.role === 'user' && turn.texts.some((text) => RUN.test(text)),
      );
      const match = start < 0 ? null : RUN.exec(conversation[start]?.texts.find((text) => RUN.test(text)) ?? '');
      if (!protocol || !match) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `not a benchmark request: ${req.method} ${req.url}` } }));
        return;
      }
      const [, nonce = '', rounds, program, tool, stall] = match;
      const call =
        program !== undefined
          ? { name: 'bench_program', args: { calls: Number(program) } }
          : { name: tool ?? 'noop', args: {} };
      const run = runOf(nonce);
      /** @type {Exchange} */
      const exchange = { arrivedAt, finishedAt: null, bodyBytes: raw.length };
      run.exchanges.push(exchange);
      const stalls = run.exchanges.length <= Number(stall ?? 0);
      const toolResults = conversation.slice(start).reduce((sum, turn) => sum + turn.toolResults, 0);
      const done = toolResults >= Number(rounds);
      notify(run);

      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frames = protocol.answer(done, body, path, call);
      if (stalls) {
        // Held open until the client goes away (a crash) or the server closes.
        for (const frame of frames.filter((text) => text.startsWith('data:')).slice(0, STALL_AFTER_EVENTS)) {
          res.write(frame);
        }
        return;
      }
      for (const frame of frames) res.write(frame);
      res.end(() => {
        exchange.finishedAt = performance.now();
        if (done) run.doneAt = exchange.finishedAt;
        notify(run);
      });
    });
  });

  // A thousand threads may connect at once: the default backlog (511) would drop their SYNs, and a
  // dropped SYN costs the client a retransmission a second or more later.
  await new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve(undefined)),
  );
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

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
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}

/**
 * @param {string} text
 * @returns {any}
 */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
