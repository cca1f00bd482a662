/**
 * Sandboxed code: what `state.runCode` costs, and a tool call from inside a program. `bench-code`
 * calls `noop`, or `bench_program`, whose program returns at once or calls `noop` ten times from inside
 * its isolate; the three kinds of thread take turns run by run. Every program gets an isolate of its
 * own (none is reused), and a thread's first tool round is kept apart: its first program is the first
 * isolate that Durable Object loads. The derived costs are differences of medians taken within each
 * repetition, reported with their spread.
 */
import { ms, spreadCells, table } from '../format.mjs';
import { derived, firstRound, laterRounds, pooledRow, repeat } from '../repetitions.mjs';

const ROUNDS = 20;
const RUNS = 3;
const HISTORY = 10;
/** Tool calls the program of `calls` makes. */
const INNER_CALLS = 10;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function sandbox({ client, repetitions }) {
  const arms = {
    noop: () => client.rounds('bench-code', HISTORY, ROUNDS),
    empty: () => client.rounds('bench-code', HISTORY, ROUNDS, { program: 0 }),
    calls: () => client.rounds('bench-code', HISTORY, ROUNDS, { program: INNER_CALLS }),
  };
  for (const arm of Object.values(arms)) await arm();
  const results = await repeat({ repetitions, runs: RUNS, arms });
  const rows = [
    pooledRow(results, 'Tool round calling `noop` (a tool the model calls)', 'noop', laterRounds),
    pooledRow(results, 'Tool round running a program that returns at once', 'empty', laterRounds),
    pooledRow(results, `Tool round running a program that calls \`noop\` ${INNER_CALLS} times`, 'calls', laterRounds),
    pooledRow(results, "A thread's first tool round, calling `noop`", 'noop', firstRound),
    pooledRow(results, "A thread's first tool round, running the program that returns at once", 'empty', firstRound),
  ];
  const warmProgram = derived(results, (of) => of('empty') - of('noop'), laterRounds);
  const coldProgram = derived(results, (of) => of('empty') - of('noop'), firstRound);
  const innerCall = derived(results, (of) => (of('calls') - of('empty')) / INNER_CALLS, laterRounds);
  const show = (/** @type {number} */ value) => ms(value, 2);
  const markdown = `## Sandboxed code

\`bench-code\` threads of ${ROUNDS} rounds with a ${HISTORY}-message history, ${repetitions} repetitions of ${RUNS} runs of each
kind, interleaved. A thread's first round is counted apart (its first program is the first isolate
that Durable Object loads).

${table(['measurement', 'rounds', 'median (ms)', 'p95 (ms)'], rows)}

${table(
  ['derived per repetition (differences of medians, ms)', 'median', 'IQR', 'min – max'],
  [
    ['One `runCode` of a trivial program (program round - noop round)', ...spreadCells(warmProgram, show)],
    ["The same in a thread's first round", ...spreadCells(coldProgram, show)],
    [
      `One tool call from inside a program ((${INNER_CALLS}-call round - empty program round) / ${INNER_CALLS})`,
      ...spreadCells(innerCall, show),
    ],
  ],
)}
`;
  return { markdown, targets: [] };
}
