/**
 * The benchmark model's HTTP side, run in a worker thread of its own (bench/model-server.mjs starts
 * it): it answers at once in the protocol of each provider adapter (bench/wire-protocols.mjs), with
 * the same bytes as the test servers, and reports every exchange to the main thread, stamped on a
 * clock both threads share (performance.timeOrigin + performance.now()). On a thread of its own,
 * its stamps are not held up by the benchmark's client: a client reading a WebSocket's frames or
 * polling in the same event loop would delay the stamp of a request that has already arrived.
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
import { parentPort } from 'node:worker_threads';
import { PROTOCOLS } from './wire-protocols.mjs';

const RUN = /^bench (\S+) rounds:(\d+)(?: program:(\d+))?(?: tool:(\S+))?(?: stall:(\d+))?$/;
/** Events a stalled answer sends before it stops (the first carries the role, the next the text). */
const STALL_AFTER_EVENTS = 2;

/**
 * What the thread reports: `arrived` when a request has fully arrived, `finished` when the last
 * byte of its answer was handed to the OS; `at` in ms since the epoch, with sub-ms precision.
 * @typedef {{ type: 'listening', port: number }
 *   | { type: 'arrived', nonce: string, at: number, bodyBytes: number }
 *   | { type: 'finished', nonce: string, index: number, at: number, done: boolean }} ModelEvent
 */

/** Now, on the clock every thread of the process shares. */
const now = () => performance.timeOrigin + performance.now();

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

/** @param {(event: ModelEvent) => void} report */
async function serve(report) {
  /** How many requests each run has sent (its first `stall` answers stall). */
  const counts = new Map();
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedAt = now();
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
      const index = counts.get(nonce) ?? 0;
      counts.set(nonce, index + 1);
      report({ type: 'arrived', nonce, at: arrivedAt, bodyBytes: raw.length });
      const stalls = index < Number(stall ?? 0);
      const toolResults = conversation.slice(start).reduce((sum, turn) => sum + turn.toolResults, 0);
      const done = toolResults >= Number(rounds);

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
      res.end(() => report({ type: 'finished', nonce, index, at: now(), done }));
    });
  });

  // A thousand threads may connect at once: the default backlog (511) would drop their SYNs, and a
  // dropped SYN costs the client a retransmission a second or more later.
  await new Promise((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve(undefined)),
  );
  const address = server.address();
  report({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
  return {
    /** @param {string} nonce */
    forget: (nonce) => counts.delete(nonce),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

if (parentPort) {
  const port = parentPort;
  const served = await serve((event) => port.postMessage(event));
  port.on('message', async (/** @type {{ type: 'forget', nonce: string } | { type: 'close' }} */ message) => {
    if (message.type === 'forget') served.forget(message.nonce);
    else {
      await served.close();
      port.close();
    }
  });
}
