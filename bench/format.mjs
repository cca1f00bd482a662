/**
 * Markdown for bench/RESULTS.md: tables, numbers with their units, a spread over repetitions in one
 * cell, and the shape every scenario reports in (its section and its targets).
 */

/**
 * What a scenario hands the report.
 * @typedef {{ target: string, measured: string, met: boolean }} Target
 * @typedef {{ markdown: string, targets: Target[] }} Section
 */

/**
 * @param {string[]} header
 * @param {string[][]} rows
 * @param {string} [align] One letter per column: `l`, `r` or `c`; default the first left, the rest right.
 */
export function table(header, rows, align) {
  const marks = header.map((_, index) => {
    const letter = align?.[index] ?? (index === 0 ? 'l' : 'r');
    return letter === 'r' ? '---:' : letter === 'c' ? ':---:' : '---';
  });
  return [header, marks, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** @param {number} value @param {number} [digits] */
export function ms(value, digits = 1) {
  return value.toFixed(digits);
}

/** @param {number} value */
export function times(value) {
  return `${value.toFixed(2)}x`;
}

/** @param {number} bytes */
export function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * A spread over repetitions in three cells: median, interquartile range, extremes.
 * @param {import('./stats.mjs').Spread} spread
 * @param {(value: number) => string} show
 */
export function spreadCells({ median, q1, q3, min, max }, show) {
  return [`**${show(median)}**`, `${show(q1)} – ${show(q3)}`, `${show(min)} – ${show(max)}`];
}

/**
 * The same in one phrase, for the targets table.
 * @param {import('./stats.mjs').Spread} spread
 * @param {(value: number) => string} show
 */
export function spreadText({ median, q1, q3, min, max }, show) {
  return `${show(median)} (IQR ${show(q1)} – ${show(q3)}, range ${show(min)} – ${show(max)})`;
}

/** @param {boolean} met */
export function verdict(met) {
  return met ? 'yes' : '**no**';
}
