/**
 * The run as a person reads it in a terminal: one row per case (pass or FAIL, its turn time, tokens
 * and cost) with each failure under its case, then the totals and, with a baseline, the regressions.
 * Names and failures carry text from the suite and the model, so control characters (a terminal's
 * escape sequences among them) are shown as `\u001b` rather than sent to the terminal.
 */
import type { Comparison } from './baseline.js';
import type { CaseResult } from './run-suite.js';
import type { RunSummary } from './stats.js';

/** C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a reader sees. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const oneLine = (text: string) => printable(text).replace(/\r?\n/g, '\\n');

const seconds = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(2)}s`);
const dollars = (usd: number) => `$${usd.toFixed(usd !== 0 && usd < 0.01 ? 6 : 4)}`;

function table(rows: string[][]): string {
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function formatResults(results: readonly CaseResult[]): string {
  const rows = [['case', 'result', 'turn time', 'tokens', 'cost']];
  for (const result of results) {
    const turnTime = result.turnMs.length === 0 ? '-' : seconds(result.turnMs.reduce((sum, ms) => sum + ms, 0));
    rows.push([
      oneLine(result.name),
      result.passed ? 'pass' : 'FAIL',
      turnTime,
      String(result.tokens),
      dollars(result.costUsd),
    ]);
  }
  const failures = results
    .filter((result) => !result.passed)
    .map((result) =>
      [`FAIL ${oneLine(result.name)}`, ...result.failures.map((failure) => `  - ${oneLine(failure)}`)].join('\n'),
    );
  return [table(rows), ...(failures.length > 0 ? ['', ...failures] : [])].join('\n');
}

export function formatSummary(summary: RunSummary): string {
  const rate = `${(summary.passRate * 100).toFixed(1)}%`;
  return [
    `pass rate ${rate} (${summary.passed}/${summary.cases})`,
    `total tokens ${summary.totalTokens}, total cost ${dollars(summary.totalCostUsd)}`,
    `turn time over ${summary.turns} turns: p50 ${seconds(summary.p50TurnMs)}, p95 ${seconds(summary.p95TurnMs)}`,
  ].join('\n');
}

export function formatComparison(comparison: Comparison): string {
  const lines = comparison.regressions.map(
    (regression) => `REGRESSION ${oneLine(regression.name)}: ${regression.what}`,
  );
  if (comparison.regressions.length === 0) lines.push('no regression against the baseline');
  if (comparison.added.length > 0) lines.push(`new since the baseline: ${comparison.added.map(oneLine).join(', ')}`);
  if (comparison.removed.length > 0) lines.push(`in the baseline only: ${comparison.removed.map(oneLine).join(', ')}`);
  return lines.join('\n');
}
