/**
 * Per tool round: the runtime against the floor. A round is timed on the model server, from the end
 * of one answer to the arrival of the next request, so it holds exactly the client's own work: read
 * and parse the streamed answer, persist the assistant message, run the tool, persist its result,
 * build and send the next request with the conversation so far. The Floor object (bench/floor.ts)
 * does that same work and nothing else, so the ratio is what the runtime adds per round. Both start
 * from the user's message alone, so both send the same conversation.
 */

import { kib, ms, spreadCells, spreadText, table, times } from '../format.mjs';
import { medians, pooled, ratio, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

/** The runtime's rounds may take at most this multiple of the floor's (medians). */
const TARGET = 1.3;
/** Tool rounds per thread or floor turn. */
const ROUNDS = 20;
const RUNS = 4;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function perRound({ client, repetitions }) {
  const arms = {
    runtime: () => client.rounds('bench', 1, ROUNDS),
    floor: () => client.floorTurn(ROUNDS),
  };
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });
  /** @param {{ gaps: number[] }} run */
  const gaps = (run) => run.gaps;
  /** @param {{ bodySizes: number[] }} run */
  const bodies = (run) => run.bodySizes;
  const overhead = ratio(results, 'runtime', 'floor', gaps);
  /** @param {string} label @param {string} arm */
  const row = (label, arm) => {
    const all = pooled(results, arm, gaps);
    return [
      label,
      String(all.length),
      ms(median(all), 2),
      ms(quantile(all, 0.95), 2),
      medians(results, arm, gaps)
        .map((value) => ms(value, 2))
        .join(', '),
      kib(median(pooled(results, arm, bodies))),
    ];
  };
  const rows = [row('Runtime (`bench`)', 'runtime'), row('Floor (bench/floor.ts)', 'floor')];
  const markdown = `## Per tool round: runtime against the floor

Threads of \`bench\` created with the user's message alone, ${ROUNDS} tool rounds each, against Floor
turns of ${ROUNDS} rounds; ${repetitions} repetitions of ${RUNS} runs of each, interleaved. A round is the
model server's gap from the end of one answer to the arrival of the next request.

${table(['', 'rounds', 'median (ms)', 'p95 (ms)', 'median per repetition (ms)', 'request body (median)'], rows)}

${table(['runtime / floor, per repetition', 'median', 'IQR', 'min – max'], [['Ratio of medians', ...spreadCells(overhead, times)]])}
`;
  return {
    markdown,
    targets: [
      {
        target: `Per-round time within ${TARGET}x of the floor`,
        measured: spreadText(overhead, times),
        met: overhead.median <= TARGET,
      },
    ],
  };
}
