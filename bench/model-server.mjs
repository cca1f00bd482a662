/**
 * The benchmark's model: an OpenAI-compatible server that answers at once, with the same bytes as the
 * test server (`streamFrames` from harness/openai-server.mjs), and timestamps every exchange:
 * when a request has fully arrived, and when the last byte of its answer was handed to the OS. The gap
 * from one answer's end to the next request's arrival is the client's own time for that round.
 *
 * A run is named by a nonce in its last user message:
 *   `bench <nonce> rounds:<n>`  calls `noop` until the turn holds n tool results, then answers text;
 *   `floor <nonce>`             always calls `noop` (the Floor object only counts requests).
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { streamFrames } from '../harness/openai-server.mjs';

const RUN = /^(bench|floor) (\S+)(?: rounds:(\d+))?$/;

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
      const messages = Array.isArray(body?.messages) ? body.messages : [];
      const lastUser = messages.findLastIndex((message) => message.role === 'user');
      const match = RUN.exec(String(messages[lastUser]?.content ?? ''));
      if (body === null || !match) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not a benchmark request' } }));
        return;
      }
      const [, kind, nonce = '', rounds] = match;
      /** @type {Exchange} */
      const exchange = { arrivedAt, finishedAt: null, bodyBytes: raw.length };
      const exchanges = runs.get(nonce) ?? [];
      exchanges.push(exchange);
      runs.set(nonce, exchanges);
      const toolResults = messages.slice(lastUser).filter((message) => message.role === 'tool').length;
      const done = kind === 'bench' && toolResults >= Number(rounds);
      const reply = done ? { text: 'done' } : { toolCalls: [{ name: 'noop', arguments: '{}' }] };

      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const frame of streamFrames(reply, body)) res.write(frame);
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
    baseURL: `http://127.0.0.1:${port}/v1`,
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
 * @returns {import('../harness/openai-server.mjs').RecordedBody | null}
 */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
