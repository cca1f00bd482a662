/**
 * Where a turn's start goes: the requests that make up the time before a new thread's first model
 * request, each timed alone through the same wrangler dev, so the end-to-end scenario's *start* can
 * be read as a sum. The least a request reaching a Durable Object costs (`GET /floor/ping`, a live
 * Floor object answering at once); an API call to a live thread (`GET /api/threads/:id`, the Worker's routing, its
 * key check and one call to the thread's Durable Object); creating a thread without a turn
 * (`POST /api/threads` with no message: a new object, its SQLite schema and record, its row in the D1
 * index); creating it with the user's message (the message stored and streamed, the alarm armed that
 * runs the turn), until the POST answers and until the first model request arrives; and the floor's
 * start, a fresh Floor object until its first model request.
 */
import { randomUUID } from 'node:crypto';
import { ms, table } from '../format.mjs';
import { runText } from '../model-server.mjs';
import { medians, pooled, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

const RUNS = 5;
const TIMEOUT_MS = 60_000;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function turnStart({ client, model, url, repetitions }) {
  const live = await client.idleThread('bench', 2);
  /** @param {() => Promise<unknown>} request */
  const timed = async (request) => {
    const at = performance.now();
    await request();
    return [performance.now() - at];
  };
  const arms = {
    ping: () =>
      timed(async () => {
        const response = await fetch(`${url}/floor/ping`);
        if ((await response.text()) !== 'pong') throw new Error(`floor ping: ${response.status}`);
      }),
    call: () => timed(() => client.api('GET', `/api/threads/${live.id}`)),
    create: () => timed(() => client.api('POST', '/api/threads', { agent: 'bench', messages: [] }, 201)),
    message: async () => {
      const nonce = randomUUID();
      const sentAt = performance.now();
      const { id } = await client.api(
        'POST',
        '/api/threads',
        { agent: 'bench', messages: [{ role: 'user', content: runText(nonce, 0) }] },
        201,
      );
      const answered = performance.now() - sentAt;
      const firstRequest = (await model.arrived(nonce, 1, TIMEOUT_MS)) - sentAt;
      // Off the clock: the one-step turn ends before the next run.
      await model.finished(nonce, TIMEOUT_MS);
      await client.untilIdle(id);
      model.forget(nonce);
      return [answered, firstRequest];
    },
    floor: async () => [(await client.floorTurn(0)).start],
  };
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });

  /** @param {string} label @param {string} arm @param {(values: number[]) => number[]} pick */
  const row = (label, arm, pick) => {
    const all = pooled(results, arm, pick);
    const perRepetition = medians(results, arm, pick);
    return [
      label,
      String(all.length),
      `**${ms(median(all))}**`,
      ms(quantile(all, 0.95)),
      `${ms(Math.min(...perRepetition))} – ${ms(Math.max(...perRepetition))}`,
    ];
  };
  const markdown = `## Where a turn's start goes

Requests timed alone by the client, through the same wrangler dev, ${repetitions} repetitions of ${RUNS} of each, interleaved
(medians in ms).

${table(
  ['', 'requests', 'median', 'p95', 'repetition medians, min – max'],
  [
    row(
      '`GET /floor/ping`: a live Floor object answering at once (the least a request costs)',
      'ping',
      (values) => values,
    ),
    row('`GET /api/threads/:id` of a live idle thread (an API call reaching its object)', 'call', (values) => values),
    row('`POST /api/threads` without a message (a thread created, no turn)', 'create', (values) => values),
    row("`POST /api/threads` with the user's message, until it answers", 'message', (values) => values.slice(0, 1)),
    row('… until the first model request arrives', 'message', (values) => values.slice(1)),
    row('Floor: a fresh Floor object until its first model request', 'floor', (values) => values),
  ],
)}
`;
  return { markdown, targets: [] };
}
