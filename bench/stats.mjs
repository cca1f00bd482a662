/**
 * Order statistics for the benchmark's timings: medians and 95th percentiles (nearest rank), the
 * figures that stay meaningful on a noisy shared machine where means do not.
 */

/**
 * The value at quantile `q` (0..1) by the nearest-rank method.
 * @param {number[]} values
 * @param {number} q
 */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return /** @type {number} */ (sorted[rank - 1]);
}

/**
 * @param {number[]} values
 * @returns {{ count: number, median: number, p95: number }}
 */
export function summarize(values) {
  return { count: values.length, median: quantile(values, 0.5), p95: quantile(values, 0.95) };
}
