/**
 * A run compared with a previous one (`--baseline`), case by case by name: a case that passed and
 * now fails is a regression, and so is one whose tokens or cost rose by more than 20 % over a
 * baseline above zero (a model without prices costs 0 in both). Cases new to the suite, or gone
 * from it, are listed but are not regressions.
 */
import type { BaselineCase } from './run-record.js';
import type { CaseResult } from './run-suite.js';

/** More than this rise of tokens or cost over the baseline is a regression. */
export const RISE_LIMIT = 0.2;

export interface Regression {
  name: string;
  /** What regressed: `now fails`, `tokens 100 → 130 (+30%)`, `cost ...`. */
  what: string;
}

export interface Comparison {
  regressions: Regression[];
  /** Cases with no baseline entry. */
  added: string[];
  /** Baseline cases the run did not have. */
  removed: string[];
}

function percent(before: number, after: number): string {
  return `+${Math.round(((after - before) / before) * 100)}%`;
}

function rose(before: number, after: number): boolean {
  return before > 0 ? after > before * (1 + RISE_LIMIT) : false;
}

function regressionsOf(before: BaselineCase, now: CaseResult): Regression[] {
  const found: Regression[] = [];
  if (before.passed && !now.passed) found.push({ name: now.name, what: 'passed before, fails now' });
  if (rose(before.tokens, now.tokens)) {
    found.push({
      name: now.name,
      what: `tokens ${before.tokens} → ${now.tokens} (${percent(before.tokens, now.tokens)})`,
    });
  }
  if (rose(before.costUsd, now.costUsd)) {
    const change = percent(before.costUsd, now.costUsd);
    found.push({ name: now.name, what: `cost $${before.costUsd} → $${now.costUsd} (${change})` });
  }
  return found;
}

export function compareWithBaseline(baseline: readonly BaselineCase[], results: readonly CaseResult[]): Comparison {
  const byName = new Map(baseline.map((entry) => [entry.name, entry]));
  const regressions: Regression[] = [];
  const added: string[] = [];
  for (const result of results) {
    const before = byName.get(result.name);
    if (before) regressions.push(...regressionsOf(before, result));
    else added.push(result.name);
  }
  const names = new Set(results.map((result) => result.name));
  const removed = baseline.filter((entry) => !names.has(entry.name)).map((entry) => entry.name);
  return { regressions, added, removed };
}
