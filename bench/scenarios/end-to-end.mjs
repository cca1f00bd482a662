/**
 * A whole turn as a user sees it, against the floor doing the same turn end to end. The runtime's turn
 * runs from sending `POST /api/threads` with the user's message (the thread created with it) until the
 * client sees the turn end, observed in two ways: *watched*, the thread's WebSocket opened from its
 * first frame as soon as the POST answers, until the turn's `status: idle` frame (how a UI follows a
 * turn; the targets are judged on it); *polled*, no request to the Worker until the model server has
 * sent the final answer, then `GET /api/threads/:id` back to back until it says `idle` (no stream
 * during the turn). The floor's turn is one fetch to a fresh Floor object (its creation included),
 * answered when its turn is done. A 1-round turn is one tool call and the closing text (two model
 * requests); a 10-round turn, ten calls and the text.
 *
 * Each turn is split on the model server's clock: start (request sent to the first model request's
 * arrival, and within it when the POST answered), the round gaps, the model's own time, and end (the
 * final answer's end to the client seeing the turn end). Total minus the gaps is the turn's cost
 * outside model rounds: its fixed cost.
 */
import { ms, spreadCells, spreadText, table, times } from '../format.mjs';
import { pooled, ratio, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';
import { cpuMs } from '../workerd-process.mjs';

/** Each turn length, with its target: the runtime's median turn at most this multiple of the floor's. */
const TURNS = [
  { rounds: 1, target: 1.5 },
  { rounds: 10, target: 1.25 },
];
const RUNS = 6;
/** The pause after a run before its CPU time is read. */
const SETTLE_MS = 20;

/** @typedef {import('../client.mjs').TurnTiming} TurnTiming */

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function endToEnd({ client, workerd, repetitions }) {
  /**
   * A run with the CPU time the two workerd processes used meanwhile. Work an object leaves running
   * after its answer is charged to the next run, whatever its arm; a short pause before the second
   * reading keeps that small.
   * @param {() => Promise<TurnTiming>} run
   * @returns {() => Promise<TurnTiming & { cpu: { runtime: number, proxy: number } }>}
   */
  const withCpu = (run) => async () => {
    const cpu = () => ({ runtime: cpuMs(workerd.runtime), proxy: workerd.proxy ? cpuMs(workerd.proxy) : 0 });
    const before = cpu();
    const timing = await run();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = cpu();
    return { ...timing, cpu: { runtime: after.runtime - before.runtime, proxy: after.proxy - before.proxy } };
  };
  /** @type {Record<string, () => Promise<TurnTiming & { cpu: { runtime: number, proxy: number } }>>} */
  const arms = {};
  for (const { rounds } of TURNS) {
    arms[`watched-${rounds}`] = withCpu(() => client.createdTurn('bench', rounds, 'stream'));
    arms[`polled-${rounds}`] = withCpu(() => client.createdTurn('bench', rounds, 'poll'));
    arms[`floor-${rounds}`] = withCpu(() => client.floorTurn(rounds));
  }
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });
  /** @param {TurnTiming} turn */
  const total = (turn) => [turn.total];

  const rows = [];
  const ratioRows = [];
  const targets = [];
  for (const { rounds, target } of TURNS) {
    for (const [label, arm] of [
      [`Runtime, ${rounds}-round turn, watched`, `watched-${rounds}`],
      [`Runtime, ${rounds}-round turn, polled`, `polled-${rounds}`],
      [`Floor, ${rounds}-round turn`, `floor-${rounds}`],
    ]) {
      /** @param {(turn: TurnTiming) => number | null} of */
      const part = (of) => {
        const values = pooled(results, arm, (turn) => {
          const value = of(turn);
          return value === null ? [] : [value];
        });
        return values.length > 0 ? ms(median(values)) : '–';
      };
      const totals = pooled(results, arm, total);
      rows.push([
        label,
        String(totals.length),
        `**${ms(median(totals))}**`,
        ms(quantile(totals, 0.95)),
        part((turn) => turn.start),
        part((turn) => turn.answered),
        part((turn) => turn.rounds),
        part((turn) => turn.model),
        part((turn) => turn.end),
        `**${part((turn) => turn.total - turn.rounds)}**`,
      ]);
    }
    const watched = ratio(results, `watched-${rounds}`, `floor-${rounds}`, total);
    const polled = ratio(results, `polled-${rounds}`, `floor-${rounds}`, total);
    ratioRows.push([`${rounds}-round turn, watched runtime / floor`, ...spreadCells(watched, times)]);
    ratioRows.push([`${rounds}-round turn, polled runtime / floor`, ...spreadCells(polled, times)]);
    targets.push({
      target: `${rounds}-round turn end to end (POST to idle, watched) within ${target}x of the floor`,
      measured: spreadText(watched, times),
      met: watched.median <= target,
    });
  }
  // CPU time: ticks are coarse, so means over every turn of a kind, and the per-round and fixed parts
  // from the two turn lengths (a 10-round turn is nine rounds more than a 1-round one).
  /** @param {string} arm @param {'runtime' | 'proxy'} process */
  const meanCpu = (arm, process) => {
    const values = pooled(results, arm, (turn) => [turn.cpu[process]]);
    return values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  const [short, long] = TURNS.map(({ rounds }) => rounds);
  const cpuRows = [
    ['Runtime, watched', 'watched'],
    ['Runtime, polled', 'polled'],
    ['Floor', 'floor'],
  ].map(([label, kind]) => {
    const one = meanCpu(`${kind}-${short}`, 'runtime');
    const ten = meanCpu(`${kind}-${long}`, 'runtime');
    const perRound = (ten - one) / (Number(long) - Number(short));
    return [
      /** @type {string} */ (label),
      ms(one),
      ms(ten),
      `**${ms(perRound, 2)}**`,
      `**${ms(one - perRound * Number(short))}**`,
      ms(meanCpu(`${kind}-${short}`, 'proxy')),
      ms(meanCpu(`${kind}-${long}`, 'proxy')),
    ];
  });
  const markdown = `## End to end: a turn as a user sees it

${repetitions} repetitions of ${RUNS} turns of each kind, the six kinds interleaved. Runtime: \`POST /api/threads\` with
the user's message until the client sees the turn end, *watched* (the thread's WebSocket from its first
frame, opened when the POST answers, until the turn's \`status: idle\` frame; the targets use it) or
*polled* (nothing until the model's final answer, then \`GET /api/threads/:id\` back to back until
\`idle\`). Floor: one \`POST /floor/<nonce>?rounds=N\` to a fresh Floor object, until its answer. Medians
over all turns, in ms: *start* from sending the request to the first model request arriving (*POST
answered*: the runtime's answer to its POST, inside *start*), *rounds* the sum of the round gaps,
*model* the model server's own time, *end* from the final answer's end to the client seeing the turn
end, *outside rounds* total minus rounds (start + model + end): the turn's fixed cost.

${table(['', 'turns', 'total', 'p95', 'start', 'POST answered', 'rounds', 'model', 'end', 'outside rounds'], rows)}

${table(['per repetition', 'median', 'IQR', 'min – max'], ratioRows)}

CPU time the workerd processes used per turn (ms; means over the ${RUNS * repetitions} turns of each kind, from
\`/proc/<pid>/stat\` around each run; *per round* and *outside rounds* solved from the two turn lengths):

${table(
  [
    '',
    `workerd (Worker), ${short}-round turn`,
    `${long}-round turn`,
    'per round',
    'outside rounds',
    `wrangler's proxy, ${short}-round`,
    `${long}-round`,
  ],
  cpuRows,
)}
`;
  return { markdown, targets };
}
