/**
 * The benchmark's model: a server that answers at once in the protocol of each provider adapter
 * (bench/wire-protocols.mjs), with the same bytes as the test servers, and timestamps every exchange:
 * when a request has fully arrived, and when the last byte of its answer was handed to the OS. The gap
 * from one answer's end to the next request's arrival is the client's own time for that round.
 *
 * A run is named by a nonce in the last user text of its conversation:
 *   `bench <nonce> rounds:<n>`  calls `noop` until the turn holds n tool results, then answers text;
 *   `bench <nonce> rounds:<n> program:<k>`  calls `bench_program` with `{ calls: k }` instead;
 *   `bench <nonce> rounds:<n> tool:<name>`  calls the tool `name` with `{}` instead (an MCP tool);
 *   `floor <nonce>`             always calls `noop` (the Floor object only counts requests).
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { PROTOCOLS } from './wire-protocols.mjs';

const RUN = /^(bench|floor) (\S+)(?: rounds:(\d+))?(?: program:(\d+))?(?: tool:(\S+))?$/;

/** @typedef {{ arrivedAt: number, finishedAt: number | null, bodyBytes: number }} Exchange */

export async function startTimedModelServer() {
  /** @type {Map<string, Exchange[]>} */
  const runs = new Map();
  /** @type {Map<string, () => void>} */
  const finishWaiters = new Map();

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
      const [, kind, nonce = '', rounds, program, tool] = match;
      const call =
        program !== undefined
          ? { name: 'bench_program', args: { calls: Number(program) } }
          : { name: tool ?? 'noop', args: {} };
      /** @type {Exchange} */
      const exchange = { arrivedAt, finishedAt: null, bodyBytes: raw.length };
      const exchanges = runs.get(nonce) ?? [];
      exchanges.push(exchange);
      runs.set(nonce, exchanges);
      const toolResults = conversation.slice(start).reduce((sum, turn) => sum + turn.toolResults, 0);
      const done = kind === 'bench' && toolResults >= Number(rounds);

      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of protocol.answer(done, body, path, call)) res.write(frame);
      res.end(() => {
        exchange.finishedAt = performance.now();
        if (done) finishWaiters.get(nonce)?.();
      });
    });
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    /** The server's origin; OpenAI's base URL is this with `/v1`, Anthropic's and Google's this alone. */
    origin: `http://127.0.0.1:${port}`,
    /**
     * Resolves when a `bench` run has been sent its final text answer.
     * @param {string} nonce
     * @param {number} timeoutMs
     */
    finished(nonce, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`run ${nonce} not finished after ${timeoutMs} ms`)), timeoutMs);
        finishWaiters.set(nonce, () => {
          clearTimeout(timer);
          finishWaiters.delete(nonce);
          resolve(undefined);
        });
      });
    },
    /**
     * The client's time per round of a run, in ms: each answer's end to the next request's arrival.
     * @param {string} nonce
     */
    gaps(nonce) {
      const exchanges = runs.get(nonce) ?? [];
      return exchanges.slice(1).map((exchange, index) => {
        const previous = /** @type {Exchange} */ (exchanges[index]);
        if (previous.finishedAt === null) throw new Error(`run ${nonce}: a request arrived before the answer ended`);
        return exchange.arrivedAt - previous.finishedAt;
      });
    },
    /**
     * Request body sizes of a run, in bytes.
     * @param {string} nonce
     */
    bodySizes(nonce) {
      return (runs.get(nonce) ?? []).map((exchange) => exchange.bodyBytes);
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
