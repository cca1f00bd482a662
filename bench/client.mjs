/**
 * How the benchmark drives the Worker under test: the public API as a user calls it, the Floor
 * object, and the model server's clock. Every timestamp is performance.now() of this process, the
 * same clock the model server stamps its exchanges with, so a client-side instant and a model-side
 * instant can be subtracted.
 *
 * Three kinds of run:
 * - `rounds`: a thread created with a history and a run text, for its per-round gaps only (the
 *   client waits for the model's last answer, then for `idle`, off the clock);
 * - `createdTurn` / `postedTurn`: a whole turn timed as a user sees it, from the request that starts
 *   it (`POST /api/threads`, or `POST /api/threads/:id/messages` on an idle thread) to the client
 *   seeing it end: the thread's `status: idle` frame arriving on its WebSocket, or (`createdTurn`
 *   only, `poll`) a `GET /api/threads/:id` answering `idle`;
 * - `floorTurn`: the Floor object's turn, one fetch that answers when its turn is done.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { runText } from './model-server.mjs';
import { median } from './stats.mjs';

const RUN_TIMEOUT_MS = 120_000;

/**
 * @typedef {ReturnType<typeof import('./model-server.mjs').startTimedModelServer> extends Promise<infer T> ? T : never} ModelServer
 * @typedef {{ gaps: number[], bodySizes: number[] }} RoundsSample Round times (ms) and request body sizes (bytes).
 * @typedef {object} TurnTiming A whole turn, every time in ms.
 * @property {number} total From sending the request that starts the turn to seeing it end.
 * @property {number} rounds The sum of its round gaps (model answer's end to next request).
 * @property {number} model The model server's own time (request arrival to its answer's end), summed.
 * @property {number} start From sending the request to the first model request's arrival.
 * @property {number | null} answered From sending the request to its answer, when the turn goes on after it
 *   (the runtime's POST answers before its turn runs; the Floor's fetch answers at the turn's end).
 * @property {number} end From the final answer's end to seeing the turn end.
 * @property {number} requests Model requests in the turn.
 * @property {number} bodyBytes The median size of its request bodies.
 * @typedef {{ program?: number, tool?: string, variables?: Record<string, string> }} RunOptions
 */

/**
 * @param {{ url: string, key: string, model: ModelServer }} target
 */
export function benchClient({ url, key, model }) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [json]
   * @param {number} [expected]
   */
  async function api(method, path, json, expected = 200) {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  /**
   * Polls until the thread is idle; for runs whose timing does not depend on it.
   * @param {string} id
   * @param {number} intervalMs
   */
  async function untilIdle(id, intervalMs = 20) {
    const deadline = performance.now() + RUN_TIMEOUT_MS;
    for (;;) {
      const view = await api('GET', `/api/threads/${id}`);
      if (view.last_error) throw new Error(`thread ${id} failed: ${view.last_error}`);
      if (view.status === 'idle') return performance.now();
      if (performance.now() > deadline) throw new Error(`thread ${id} still ${view.status}`);
      if (intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /**
   * A turn's timing from the model server's records and the client's two instants.
   * @param {string} nonce
   * @param {number} sentAt
   * @param {number} endedAt
   * @param {number | null} answeredAt
   * @returns {Promise<TurnTiming>}
   */
  async function timing(nonce, sentAt, endedAt, answeredAt) {
    // The model server's thread may report the final answer's end after the client saw the turn end.
    await model.finished(nonce, RUN_TIMEOUT_MS);
    const exchanges = model.exchanges(nonce);
    const first = exchanges[0];
    const last = exchanges.at(-1);
    if (!first || !last?.finishedAt) throw new Error(`run ${nonce}: no finished exchange`);
    const sum = (/** @type {number[]} */ values) => values.reduce((total, value) => total + value, 0);
    const result = {
      total: endedAt - sentAt,
      rounds: sum(model.gaps(nonce)),
      model: sum(model.serviceTimes(nonce)),
      start: first.arrivedAt - sentAt,
      answered: answeredAt === null ? null : answeredAt - sentAt,
      end: endedAt - last.finishedAt,
      requests: exchanges.length,
      bodyBytes: median(model.bodySizes(nonce)),
    };
    model.forget(nonce);
    return result;
  }

  return {
    api,
    untilIdle,

    /**
     * A thread created with `historyLength` messages, the last one the run text asking for `rounds`
     * tool rounds; resolves with its round gaps once it is idle again.
     * @param {string} agent
     * @param {number} historyLength
     * @param {number} rounds
     * @param {RunOptions} [options]
     * @returns {Promise<RoundsSample>}
     */
    async rounds(agent, historyLength, rounds, options = {}) {
      const nonce = randomUUID();
      const finished = model.finished(nonce, RUN_TIMEOUT_MS);
      const messages = history(historyLength - 1);
      messages.push({ role: 'user', content: runText(nonce, rounds, options) });
      const { id } = await api('POST', '/api/threads', { agent, messages, variables: options.variables ?? {} }, 201);
      await finished;
      await untilIdle(id);
      const gaps = model.gaps(nonce);
      if (gaps.length !== rounds) throw new Error(`thread ${id}: ${gaps.length} rounds timed, expected ${rounds}`);
      const sample = { gaps, bodySizes: model.bodySizes(nonce) };
      model.forget(nonce);
      return sample;
    },

    /**
     * `POST /api/threads` with the user's message, until the turn is seen to end: a new conversation
     * as a user sees it. `stream`: the thread's WebSocket, opened from its first frame as soon as the
     * POST answers, until the turn's `status: idle` frame. `poll`: nothing until the model server has
     * sent the final answer (no request to the Worker meanwhile), then `GET /api/threads/:id` back to
     * back until it says `idle`.
     * @param {string} agent
     * @param {number} rounds
     * @param {'stream' | 'poll'} observe
     * @returns {Promise<TurnTiming>}
     */
    async createdTurn(agent, rounds, observe) {
      const nonce = randomUUID();
      const sentAt = performance.now();
      const { id } = await api(
        'POST',
        '/api/threads',
        { agent, messages: [{ role: 'user', content: runText(nonce, rounds) }] },
        201,
      );
      const answeredAt = performance.now();
      let endedAt;
      if (observe === 'stream') {
        const watcher = await watch(url, key, id, 0);
        endedAt = await watcher.turnEnded;
        watcher.close();
      } else {
        await model.finished(nonce, RUN_TIMEOUT_MS);
        endedAt = await untilIdle(id, 0);
      }
      return timing(nonce, sentAt, endedAt, answeredAt);
    },

    /**
     * Creates an idle thread holding `length` messages (the last an assistant's, so no turn starts).
     * @param {string} agent
     * @param {number} length
     * @returns {Promise<{ id: string, lastSeq: number }>}
     */
    async idleThread(agent, length) {
      const view = await api('POST', '/api/threads', { agent, messages: history(length) }, 201);
      if (view.message_count !== length) throw new Error(`thread ${view.id}: ${view.message_count} messages`);
      return { id: view.id, lastSeq: view.last_frame_seq };
    },

    /**
     * On an idle thread whose WebSocket is already open (after `lastSeq`): `POST .../messages`
     * starting a turn of `rounds`, until that turn's `idle` frame.
     * @param {{ id: string, lastSeq: number }} thread
     * @param {number} rounds
     * @returns {Promise<TurnTiming>}
     */
    async postedTurn(thread, rounds) {
      const nonce = randomUUID();
      const watcher = await watch(url, key, thread.id, thread.lastSeq);
      const sentAt = performance.now();
      await api('POST', `/api/threads/${thread.id}/messages`, { content: runText(nonce, rounds) }, 202);
      const answeredAt = performance.now();
      const endedAt = await watcher.turnEnded;
      watcher.close();
      return timing(nonce, sentAt, endedAt, answeredAt);
    },

    /**
     * The Floor object's turn of `rounds` tool rounds: one fetch to a fresh object, answered at its end.
     * @param {number} rounds
     * @returns {Promise<TurnTiming & RoundsSample>}
     */
    async floorTurn(rounds) {
      const nonce = randomUUID();
      const sentAt = performance.now();
      const response = await fetch(`${url}/floor/${nonce}?rounds=${rounds}`, { method: 'POST' });
      const text = await response.text();
      const endedAt = performance.now();
      if (!response.ok) throw new Error(`floor run failed: ${response.status} ${text}`);
      await model.finished(nonce, RUN_TIMEOUT_MS);
      const gaps = model.gaps(nonce);
      if (gaps.length !== rounds) throw new Error(`floor: ${gaps.length} rounds timed, expected ${rounds}`);
      const bodySizes = model.bodySizes(nonce);
      return { ...(await timing(nonce, sentAt, endedAt, null)), gaps, bodySizes };
    },
  };
}

/**
 * The thread's WebSocket, opened after frame `after`: records every frame, resolves `turnEnded` with
 * the instant a `status: idle` frame arrives after a `status: running` one, and `until(test)` once a
 * frame passing `test` has arrived.
 * @param {string} url
 * @param {string} key
 * @param {string} id
 * @param {number} after
 */
export async function watch(url, key, id, after) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/threads/${id}/stream?token=${key}&after=${after}`);
  /** @type {{ seq: number, type: string, [field: string]: unknown }[]} */
  const frames = [];
  /** @type {Array<() => void>} */
  const waiters = [];
  let running = false;
  /** @type {(at: number) => void} */
  let ended = () => {};
  /** @type {(error: Error) => void} */
  let failed = () => {};
  /** @type {Promise<number>} */
  const turnEnded = new Promise((resolve, reject) => {
    ended = resolve;
    failed = reject;
  });
  // Callers that stop watching early never await it.
  turnEnded.catch(() => {});
  const timer = setTimeout(() => failed(new Error(`thread ${id}: no idle after ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    frames.push(frame);
    for (const waiter of waiters.splice(0)) waiter();
    if (frame.type === 'error') failed(new Error(`thread ${id}: ${frame.code} ${frame.message}`));
    if (frame.type !== 'status') return;
    if (frame.status === 'running') running = true;
    else if (running && frame.status === 'idle') {
      clearTimeout(timer);
      ended(performance.now());
    }
  });
  socket.on('error', (error) => failed(error));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    turnEnded,
    frames,
    /** @param {(frame: { seq: number, type: string, [field: string]: unknown }) => boolean} test */
    until(test) {
      return new Promise((resolve) => {
        const check = () => (frames.some(test) ? resolve(undefined) : waiters.push(check));
        check();
      });
    },
    close() {
      clearTimeout(timer);
      socket.close();
    },
  };
}

/**
 * Alternating user and assistant messages, the last an assistant's.
 * @param {number} length
 * @returns {{ role: string, content: string }[]}
 */
export function history(length) {
  return Array.from({ length }, (_, index) => ({
    role: (length - 1 - index) % 2 === 0 ? 'assistant' : 'user',
    content: `Message ${index} of an earlier conversation, about as long as a short chat reply.`,
  }));
}
