/**
 * Sandboxed code: what `state.runCode` costs, and a tool call from inside a program. `bench-code`
 * calls `noop`, or `bench_program`, whose program returns at once or calls `noop` ten times from inside
 * its isolate; the three kinds of thread take turns run by run. Every program gets an isolate of its
 * own (none is reused), and a thread's first tool round is kept apart: its first program is the first
 * isolate that Durable Object loads. The derived costs are differences of medians taken within each
 * repetition, reported with their spread.
 */
import { ms, spreadCells, table } from '../format.mjs';
import { derived, pooled, repeat } from '../repetitions.mjs';
import { median, quantile } from '../stats.mjs';

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
  /** @param {{ gaps: number[] }} run */
  const later = (run) => run.gaps.slice(1);
  /** @param {{ gaps: number[] }} run */
  const first = (run) => run.gaps.slice(0, 1);
  /** @param {string} label @param {string} arm @param {(run: { gaps: number[] }) => number[]} values */
  const row = (label, arm, values) => {
    const all = pooled(results, arm, values);
    return [label, String(all.length), ms(median(all), 2), ms(quantile(all, 0.95), 2)];
  };
  const rows = [
    row('Tool round calling `noop` (a tool the model calls)', 'noop', later),
    row('Tool round running a program that returns at once', 'empty', later),
    row(`Tool round running a program that calls \`noop\` ${INNER_CALLS} times`, 'calls', later),
    row("A thread's first tool round, calling `noop`", 'noop', first),
    row("A thread's first tool round, running the program that returns at once", 'empty', first),
  ];
  const warmProgram = derived(results, (of) => of('empty') - of('noop'), later);
  const coldProgram = derived(results, (of) => of('empty') - of('noop'), first);
  const innerCall = derived(results, (of) => (of('calls') - of('empty')) / INNER_CALLS, later);
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
