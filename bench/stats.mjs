/**
 * Order statistics for the benchmark's timings: medians, quartiles and tail percentiles, the figures
 * that stay meaningful on a noisy shared machine where means do not. Quantiles interpolate linearly
 * between the two nearest order statistics (the common "type 7" definition), so the median of an even
 * count is the mean of the middle two.
 */

/**
 * The value at quantile `q` (0..1).
 * @param {readonly number[]} values
 * @param {number} q
 */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = /** @type {number} */ (sorted[below]);
  const high = /** @type {number} */ (sorted[Math.min(below + 1, sorted.length - 1)]);
  return low + (high - low) * (position - below);
}

/** @param {readonly number[]} values */
export function median(values) {
  return quantile(values, 0.5);
}

/**
 * @typedef {{ count: number, median: number, p95: number }} Summary
 * @param {readonly number[]} values
 * @returns {Summary}
 */
export function summarize(values) {
  return { count: values.length, median: median(values), p95: quantile(values, 0.95) };
}

/**
 * How a figure spread over repetitions: its median, interquartile range and extremes.
 * @typedef {{ count: number, median: number, q1: number, q3: number, min: number, max: number }} Spread
 * @param {readonly number[]} values
 * @returns {Spread}
 */
export function spread(values) {
  return {
    count: values.length,
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
