/**
 * History: what a long conversation costs a turn. A whole turn (`POST /api/threads/:id/messages` on an
 * idle thread until the turn's `status: idle` frame on its WebSocket, opened beforehand) on a thread
 * holding 3,000 messages against one holding 10, for both kinds of agent: `bench-turn` sends the model
 * only the current turn, so what grows is the runtime's own handling of a longer log; `bench` sends
 * the whole conversation, so its request bodies grow with the history too.
 *
 * The targets compare the turn less the model server's own time: with a 3,000-message conversation
 * the benchmark's model spends milliseconds parsing each request body, which is not the runtime's
 * cost; the whole turn's ratio is shown beside it.
 *
 * Setup, not measured: before each repetition every thread it needs is created in one
 * `POST /api/threads` with all its messages (alternating user and assistant, the last an assistant's,
 * so no turn starts), and each thread then serves exactly one measured turn.
 */
import { kib, ms, spreadCells, spreadText, table, times } from '../format.mjs';
import { pooled, ratio, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

const SHORT = 10;
const LONG = 3000;
/** Tool rounds per measured turn. */
const ROUNDS = 10;
const RUNS = 3;
const AGENTS = [
  { agent: 'bench-turn', sends: 'the current turn only', target: 1.5 },
  { agent: 'bench', sends: 'the whole conversation', target: 2 },
];

/** @typedef {import('../client.mjs').TurnTiming} TurnTiming */

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function history({ client, repetitions }) {
  /** @type {Map<string, { id: string, lastSeq: number }[]>} Idle threads waiting for their turn, per arm. */
  const ready = new Map();
  /** @type {number[]} */
  const creationTimes = [];
  const setUp = async () => {
    for (let run = 0; run < RUNS; run++) {
      for (const { agent } of AGENTS) {
        for (const length of [SHORT, LONG]) {
          const started = performance.now();
          const thread = await client.idleThread(agent, length);
          if (length === LONG) creationTimes.push(performance.now() - started);
          ready.set(`${agent}-${length}`, [...(ready.get(`${agent}-${length}`) ?? []), thread]);
        }
      }
    }
  };
  /** @type {Record<string, () => Promise<TurnTiming>>} */
  const arms = {};
  for (const { agent } of AGENTS) {
    for (const length of [SHORT, LONG]) {
      arms[`${agent}-${length}`] = () => {
        const thread = ready.get(`${agent}-${length}`)?.shift();
        if (!thread) throw new Error(`no prepared ${agent} thread of ${length} messages`);
        return client.postedTurn(thread, ROUNDS);
      };
    }
  }
  // Warm-up: one turn of each kind.
  await setUp();
  for (const arm of Object.values(arms)) await arm();
  ready.clear();
  creationTimes.length = 0;
  const results = await repeat({ repetitions, runs: RUNS, arms, setUp });

  /** @param {string} arm @param {(timing: TurnTiming) => number} of */
  const medianOf = (arm, of) => median(pooled(results, arm, (timing) => [of(timing)]));
  /** @param {TurnTiming} timing */
  const total = (timing) => [timing.total];
  /** @param {TurnTiming} timing */
  const lessModel = (timing) => [timing.total - timing.model];
  const rows = [];
  const ratioRows = [];
  const targets = [];
  for (const { agent, sends, target } of AGENTS) {
    for (const length of [SHORT, LONG]) {
      const arm = `${agent}-${length}`;
      const totals = pooled(results, arm, total);
      rows.push([
        `\`${agent}\` (sends ${sends}), ${length.toLocaleString('en')} messages`,
        String(totals.length),
        `**${ms(median(totals))}**`,
        ms(quantile(totals, 0.95)),
        ms(medianOf(arm, (timing) => timing.start)),
        ms(
          medianOf(arm, (timing) => timing.rounds / ROUNDS),
          2,
        ),
        ms(medianOf(arm, (timing) => timing.end)),
        ms(medianOf(arm, (timing) => timing.model)),
        ms(medianOf(arm, (timing) => timing.total - timing.rounds)),
        `**${ms(medianOf(arm, (timing) => timing.total - timing.model))}**`,
        kib(medianOf(arm, (timing) => timing.bodyBytes)),
      ]);
    }
    const whole = ratio(results, `${agent}-${LONG}`, `${agent}-${SHORT}`, total);
    const runtime = ratio(results, `${agent}-${LONG}`, `${agent}-${SHORT}`, lessModel);
    const label = `\`${agent}\`, ${LONG.toLocaleString('en')} / ${SHORT} messages`;
    ratioRows.push([`${label}, turn less model`, ...spreadCells(runtime, times)]);
    ratioRows.push([`${label}, whole turn`, ...spreadCells(whole, times)]);
    targets.push({
      target: `History: a \`${agent}\` turn on ${LONG.toLocaleString('en')} messages within ${target}x of one on ${SHORT} (less the model's own time)`,
      measured: `${spreadText(runtime, times)}; whole turn ${times(whole.median)}`,
      met: runtime.median <= target,
    });
  }
  const markdown = `## History: a turn on a long thread

A ${ROUNDS}-round turn posted to an idle thread holding ${SHORT} or ${LONG.toLocaleString('en')} messages, timed from
sending \`POST /api/threads/:id/messages\` to the turn's \`status: idle\` frame on the thread's WebSocket
(opened beforehand). ${repetitions} repetitions of ${RUNS} turns of each kind, the four kinds interleaved, a fresh
thread for every turn. Setup, not measured: before each repetition its threads are created, each in one
\`POST /api/threads\` carrying all its messages (alternating user and assistant, the last an assistant's,
so no turn starts); creating a ${LONG.toLocaleString('en')}-message thread took ${ms(median(creationTimes), 0)} ms
(median of ${creationTimes.length}). Medians in ms: *start* from sending the POST to the first model request arriving,
*round* one round gap, *end* from the final answer's end to the \`idle\` frame, *model* the model server's own
time in the turn (request arrival to answer end: with a ${LONG.toLocaleString('en')}-message \`bench\` conversation, mostly its
parsing of each request body), *outside rounds* the turn less its round gaps, *turn less model* the
runtime's part of the turn (the targets use it); request bodies, the median size.

${table(
  ['', 'turns', 'turn', 'p95', 'start', 'round', 'end', 'model', 'outside rounds', 'turn less model', 'request body'],
  rows,
)}

${table(['per repetition', 'median', 'IQR', 'min – max'], ratioRows)}
`;
  return { markdown, targets };
}
