/**
 * Repetitions of interleaved runs, so one lucky or unlucky stretch of a shared machine cannot decide a
 * comparison. A comparison runs R repetitions; each repetition runs every arm `runs` times, the arms
 * taking turns run by run (the order rotating, so no arm always follows the same other), and reduces
 * each arm to the median of its values in that repetition. A ratio is taken per repetition, between
 * medians measured side by side, and reported as its spread over the repetitions (median,
 * interquartile range, extremes): targets are judged on the median ratio.
 */
import { ms } from './format.mjs';
import { median, quantile, spread } from './stats.mjs';

/**
 * @template T
 * @typedef {Record<string, T[][]>} Repeated Per arm, per repetition, the result of each run.
 */

/**
 * @template T
 * @param {object} options
 * @param {number} options.repetitions
 * @param {number} options.runs Runs of every arm per repetition.
 * @param {Record<string, () => Promise<T>>} options.arms
 * @param {(repetition: number) => Promise<void>} [options.setUp] Unmeasured preparation before each repetition.
 * @returns {Promise<Repeated<T>>}
 */
export async function repeat({ repetitions, runs, arms, setUp }) {
  const names = Object.keys(arms);
  /** @type {Repeated<T>} */
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let repetition = 0; repetition < repetitions; repetition++) {
    await setUp?.(repetition);
    for (const name of names) results[name]?.push([]);
    for (let run = 0; run < runs; run++) {
      const shift = (repetition * runs + run) % names.length;
      for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
        const arm = /** @type {() => Promise<T>} */ (arms[name]);
        results[name]?.[repetition]?.push(await arm());
      }
    }
  }
  return results;
}

/**
 * Each repetition's median of an arm's values.
 * @template T
 * @param {Repeated<T>} results
 * @param {string} arm
 * @param {(result: T) => number[]} values
 */
export function medians(results, arm, values) {
  return armResults(results, arm).map((runs) => median(runs.flatMap(values)));
}

/**
 * Every value of an arm, all repetitions pooled.
 * @template T
 * @param {Repeated<T>} results
 * @param {string} arm
 * @param {(result: T) => number[]} values
 */
export function pooled(results, arm, values) {
  return armResults(results, arm).flatMap((runs) => runs.flatMap(values));
}

/**
 * The spread over repetitions of `arm`'s median / `baseline`'s median.
 * @template T
 * @param {Repeated<T>} results
 * @param {string} arm
 * @param {string} baseline
 * @param {(result: T) => number[]} values
 */
export function ratio(results, arm, baseline, values) {
  const over = medians(results, baseline, values);
  return spread(medians(results, arm, values).map((value, index) => value / /** @type {number} */ (over[index])));
}

/**
 * The spread over repetitions of a figure derived from each repetition's medians.
 * @template T
 * @param {Repeated<T>} results
 * @param {(median: (arm: string) => number) => number} derive
 * @param {(result: T) => number[]} values
 */
export function derived(results, derive, values) {
  const repetitions = Object.values(results)[0]?.length ?? 0;
  return spread(
    Array.from({ length: repetitions }, (_, index) =>
      derive((arm) => median(/** @type {T[]} */ (armResults(results, arm)[index]).flatMap(values))),
    ),
  );
}

/**
 * @template T
 * @param {Repeated<T>} results
 * @param {string} arm
 */
function armResults(results, arm) {
  const found = results[arm];
  if (!found) throw new Error(`no arm named ${arm}`);
  return found;
}

/**
 * A thread's rounds after its first: its first is kept apart where it does first-time work (the
 * first isolate an object loads, the first call on a session a listing opened).
 * @param {{ gaps: number[] }} run
 */
export const laterRounds = (run) => run.gaps.slice(1);

/** @param {{ gaps: number[] }} run */
export const firstRound = (run) => run.gaps.slice(0, 1);

/**
 * A table row of an arm's pooled values: label, count, median and p95 in ms.
 * @template T
 * @param {Repeated<T>} results
 * @param {string} label
 * @param {string} arm
 * @param {(result: T) => number[]} values
 */
export function pooledRow(results, label, arm, values) {
  const all = pooled(results, arm, values);
  return [label, String(all.length), ms(median(all), 2), ms(quantile(all, 0.95), 2)];
}
