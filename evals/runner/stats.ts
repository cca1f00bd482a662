/**
 * The figures of a run: pass rate, total tokens and cost, and the 50th and 95th percentile of turn
 * time over every turn of every case (nearest rank: the smallest time at least that share of turns
 * took no longer than, so p95 of twenty turns is the 19th fastest).
 */
import type { CaseResult } from './run-suite.js';

export interface RunSummary {
  cases: number;
  passed: number;
  /** passed / cases, 0 to 1 (1 for an empty suite). */
  passRate: number;
  totalTokens: number;
  totalCostUsd: number;
  turns: number;
  p50TurnMs: number | null;
  p95TurnMs: number | null;
}

/** The nearest-rank percentile `p` (0 < p ≤ 100) of `values`, or null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function summarize(results: readonly CaseResult[]): RunSummary {
  const turns = results.flatMap((result) => result.turnMs);
  const passed = results.filter((result) => result.passed).length;
  return {
    cases: results.length,
    passed,
    passRate: results.length === 0 ? 1 : passed / results.length,
    totalTokens: results.reduce((sum, result) => sum + result.tokens, 0),
    totalCostUsd: results.reduce((sum, result) => sum + result.costUsd, 0),
    turns: turns.length,
    p50TurnMs: percentile(turns, 50),
    p95TurnMs: percentile(turns, 95),
  };
}
